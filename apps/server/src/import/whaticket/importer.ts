import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  CAMPAIGN_STATUSES,
  type CampaignStatus,
  campaignSettingsValuesSchema,
  EVENT_INTEGRATION_TYPES,
  INTEGRATION_TYPES,
  type IntegrationType,
  NAMED_PROJECT_TYPES,
  SECRET_SETTING_KEYS,
  SETTING_VALUES,
  type SettingKey,
} from '@atendi/shared';
import type { z } from 'zod';
import { SecretBox, secretHint } from '../../platform/secrets';
import type { Storage } from '../../platform/storage';
import { count, type ImportReport, type TableReport, tableReport } from './report';
import { ImportError, type SourceRow, type WhaticketSource } from './source.repository';
import type { ImportTarget, TargetRow, TargetTable } from './target.repository';
import {
  ack,
  bool,
  contactNumber,
  fileType,
  instant,
  int,
  json,
  mediaType,
  numberIdentity,
  optionalText,
  saoPauloDay,
  scheduleStatus,
  TICKET_STATUSES,
  text,
  whatsappSession,
} from './values';

/**
 * Moves a Whaticket 6.0.0 database into ours, table by table in the order their references need
 * (plans, companies, users, queues, connections, tags, contacts, tickets, messages, ...). Each
 * source table is read page by page; each page is written in one transaction with the ids it
 * was given remembered beside it (target.repository.ts), so a second run skips what is there
 * and an interrupted run goes on from the first page it had not finished.
 *
 * Merge rules, the same on a first run and with --merge: a plan or company with the name of one
 * already here is that one (our first boot's "Plano 1" and "Empresa 1" are the original's seeded
 * ones: the source's limits and flags replace ours, its users, queues and the rest join it); a
 * queue or tag of the same name in the same company is that one; a contact whose number is
 * another's of the same company (typed with a mask, or without Brazil's ninth digit) is that
 * contact. A user whose e-mail signs someone in here already is skipped (e-mails sign in, so one
 * names one person).
 */

export interface ImportOptions {
  source: WhaticketSource;
  target: ImportTarget;
  storage: Storage;
  secretsKey: string;
  /** The original's public/ folder (its files are in company<id>/ below it). */
  mediaDir?: string;
  /** Rows per page read and per transaction written. */
  batchSize: number;
  onProgress?: (progress: {
    table: string;
    done: number;
    total: number;
    finished?: boolean;
  }) => void;
}

interface Built<R> {
  /** Write this row (its id is the one given to build). */
  row?: R;
  /** Or map the old id onto this existing row. */
  alias?: number;
  mergedBecause?: string;
  skip?: string;
  companyId?: number | null;
}

interface Written<T extends TargetTable> {
  source: SourceRow;
  id: number;
  row: TargetRow<T>;
}

/** A step of the import: a source table into one of ours (see #step). */
interface Step<T extends TargetTable> {
  table: string;
  target: T;
  /** What the id map calls its rows. */
  kind: string;
  key?: string[];
  /** The source columns read, when not all. */
  columns?: string[];
  /** The rows, when read beforehand (a menu sorted parents first). */
  rows?: SourceRow[];
  build: (
    row: SourceRow,
    id: number,
    report: TableReport,
  ) => Built<TargetRow<T>> | Promise<Built<TargetRow<T>>>;
  /** Writes of the same page beside the rows (in the same transaction). */
  extra?: (written: Written<T>[], report: TableReport) => Promise<void>;
  /** Reads the page's rows need, once per page, before they are built. */
  prefetch?: (rows: SourceRow[]) => Promise<void>;
  /**
   * A table without ids of its own here (chat members): its rows are remembered with none and
   * written with ON CONFLICT DO NOTHING.
   */
  noIds?: boolean;
  /** Messages written without their search words (`extra` marks their tickets for later). */
  withoutSearch?: boolean;
}

/** The source tables this version does not import, and why. */
const NOT_YET: { table: string; why: string }[] = [
  { table: 'Subscriptions', why: 'no place here: payments are Asaas invoices' },
  {
    table: 'Baileys',
    why: 'each connection’s cache of WhatsApp contacts and chats: WhatsApp sends them again once connected',
  },
  { table: 'BaileysChats', why: 'WhatsApp Web cache: WhatsApp sends it again once connected' },
  { table: 'BaileysMessages', why: 'WhatsApp Web cache: WhatsApp sends it again once connected' },
];

const NO_COMPANY = { skip: 'its company does not exist' };

const SESSION_CARRIED =
  'WhatsApp Web session carried over (opens without a QR code once the original is stopped)';

/**
 * Columns of Messages a 6.0.0 database may lack, with what their flag marks: no migration creates
 * isEdited (the model writes it where the column was added by hand); isForwarded is 6.0.0's
 * migration 20240911143705, absent only where a fork left it out. A missing one reads as false.
 */
const OPTIONAL_MESSAGE_COLUMNS = { isEdited: 'edited', isForwarded: 'forwarded' };

/**
 * The columns of Messages the import reads: not dataJson, Baileys' whole message as JSON, which
 * can outweigh all the rest.
 */
const MESSAGE_COLUMNS = [
  'id',
  'ticketId',
  'companyId',
  'contactId',
  'body',
  'fromMe',
  'read',
  'ack',
  'mediaType',
  'mediaUrl',
  'isDeleted',
  'participant',
  'reactions',
  'createdAt',
  'updatedAt',
  ...Object.keys(OPTIONAL_MESSAGE_COLUMNS),
];

const nonEmpty = (value: unknown) => optionalText(value) !== null;

/** A link table: its source key, and each end's kind in the id map and column here. */
interface Link {
  table: string;
  target: 'user_queues' | 'connection_queues' | 'ticket_tags';
  key: [string, string];
  left: [string, string];
  right: [string, string];
}

const LINKS = {
  userQueues: {
    table: 'UserQueues',
    target: 'user_queues',
    key: ['userId', 'queueId'],
    left: ['user', 'user_id'],
    right: ['queue', 'queue_id'],
  },
  connectionQueues: {
    table: 'WhatsappQueues',
    target: 'connection_queues',
    key: ['whatsappId', 'queueId'],
    left: ['connection', 'connection_id'],
    right: ['queue', 'queue_id'],
  },
  ticketTags: {
    table: 'TicketTags',
    target: 'ticket_tags',
    key: ['ticketId', 'tagId'],
    left: ['ticket', 'ticket_id'],
    right: ['tag', 'tag_id'],
  },
} satisfies Record<string, Link>;

export class WhaticketImporter {
  readonly report: ImportReport;
  readonly #maps = new Map<string, Map<string, number>>();
  /** Our company of each source company id. */
  #companyOf = new Map<string, number>();

  constructor(private readonly options: ImportOptions) {
    this.report = {
      source: options.source.label,
      target: options.target.label,
      dryRun: options.target.dryRun,
      startedAt: new Date().toISOString(),
      laterMigrations: [],
      tables: [],
      notImported: [],
      notes: [],
    };
  }

  get #source() {
    return this.options.source;
  }

  get #target() {
    return this.options.target;
  }

  #instant(value: unknown) {
    return instant(value, this.#source.dialect);
  }

  /** The row's own creation and update times (the import's time where they mean nothing). */
  #stamps(row: SourceRow) {
    return {
      created_at: this.#instant(row.createdAt) ?? new Date(),
      updated_at: this.#instant(row.updatedAt) ?? new Date(),
    };
  }

  async #map(kind: string): Promise<Map<string, number>> {
    let map = this.#maps.get(kind);
    if (!map) {
      map = await this.#target.mapOf(kind);
      this.#maps.set(kind, map);
    }
    return map;
  }

  #companies(): number[] {
    return [...new Set(this.#companyOf.values())];
  }

  /** Refuses a target holding other data than our first boot's or an earlier run's. */
  async checkTarget(merge: boolean): Promise<void> {
    const state = await this.#target.state();
    if (state.mapped > 0 || merge) return;
    const firstBootOnly =
      state.companies <= 1 && state.users <= 1 && state.contacts === 0 && state.tickets === 0;
    if (!firstBootOnly) {
      throw new ImportError(
        `The target database already holds data (${state.companies} companies, ${state.users} users, ${state.contacts} contacts, ${state.tickets} tickets): import into a new database, or pass --merge to add the Whaticket data to it.`,
      );
    }
  }

  async run(): Promise<ImportReport> {
    const started = Date.now();
    const { later } = await this.#source.verify();
    this.report.laterMigrations = later;
    const messageColumns = await this.#source.columns('Messages');
    for (const [column, marked] of Object.entries(OPTIONAL_MESSAGE_COLUMNS)) {
      if (!messageColumns.has(column)) {
        this.report.notes.push(
          `Messages.${column} does not exist in this database: no message is marked as ${marked}.`,
        );
      }
    }
    if (!this.options.mediaDir) {
      this.report.notes.push(
        'No --media folder was given: messages keep their text, their files were not copied.',
      );
    }
    await this.#target.prepare();
    await this.#plans();
    await this.#companiesStep();
    await this.#users();
    await this.#queues();
    await this.#queueOptions();
    await this.#links(LINKS.userQueues);
    await this.#connections();
    await this.#links(LINKS.connectionQueues);
    await this.#userConnections();
    await this.#tags();
    await this.#contacts();
    await this.#tickets();
    await this.#links(LINKS.ticketTags);
    await this.#notes();
    await this.#ratings();
    await this.#messages();
    await this.#quickMessages();
    await this.#settings();
    await this.#schedules();
    await this.#contactLists();
    await this.#contactListItems();
    await this.#prompts();
    await this.#helps();
    await this.#announcements();
    await this.#integrations();
    await this.#fileLists();
    await this.#campaigns();
    await this.#campaignSettings();
    await this.#campaignShipping();
    await this.#chats();
    await this.#invoices();
    const tables = await this.#source.tables();
    for (const { table, why } of NOT_YET) {
      if (tables.has(table))
        this.report.notImported.push({ table, rows: await this.#source.count(table), why });
    }
    this.report.finishedAt = new Date().toISOString();
    this.report.seconds = Math.round((Date.now() - started) / 100) / 10;
    // maxRSS is in KiB.
    this.report.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
    return this.report;
  }

  /** A source table's report, in the import's. */
  #tableReport(source: string, target: string): TableReport {
    const report = tableReport(source, target);
    this.report.tables.push(report);
    return report;
  }

  /**
   * The pages of the report's source table in key order (or of `rows`, read beforehand), each
   * counted as read and told to the progress once handled; the time it took goes in the report.
   * The next page is read while one is handled: the source and our database work at once.
   */
  async *#read(
    report: TableReport,
    from: { key?: string[]; columns?: string[]; rows?: SourceRow[] } = {},
  ): AsyncGenerator<SourceRow[]> {
    const started = performance.now();
    const table = report.source;
    const size = this.options.batchSize;
    const total = from.rows ? from.rows.length : await this.#source.count(table);
    const pages = from.rows
      ? chunks(from.rows, size)
      : this.#source.pages(table, from.key ?? ['id'], size, { columns: from.columns });
    const iterator = pages[Symbol.asyncIterator]();
    let next = iterator.next();
    for (;;) {
      const current = await next;
      if (current.done) break;
      next = iterator.next();
      // A failed read ahead is thrown where it is awaited, not left unhandled meanwhile.
      next.catch(() => {});
      report.read += current.value.length;
      yield current.value;
      this.options.onProgress?.({ table, done: report.read, total });
    }
    this.options.onProgress?.({ table, done: report.read, total, finished: true });
    report.seconds = Math.round((performance.now() - started) / 100) / 10;
  }

  /**
   * The generic step: every page of `table`, its rows built by `build` (given the id each fresh
   * row gets), written and remembered under `kind` in one transaction with `extra` writes.
   */
  async #step<T extends TargetTable>(spec: Step<T>): Promise<TableReport> {
    const report = this.#tableReport(spec.table, spec.target);
    // A map a step reads while it runs (a menu's parents) is kept whole and grown; otherwise each
    // page asks for its own ids, so a million messages never sit in memory.
    const cached = this.#maps.get(spec.kind);
    // Pages hold each source row once: when no earlier run remembered a row of this kind, there
    // is nothing to look up (a first run of the million messages skips a look-up per page).
    const nothingYet = !cached && !(await this.#target.remembers(spec.kind));
    for await (const page of this.#read(report, spec)) {
      const olds = page.map((row) => text(row.id));
      const known =
        cached ??
        (nothingYet ? new Map<string, number>() : await this.#target.lookup(spec.kind, olds));
      const fresh = page.filter((row) => !known.has(text(row.id)));
      report.already += page.length - fresh.length;
      if (!fresh.length) continue;
      await spec.prefetch?.(fresh);
      const ids = spec.noIds
        ? fresh.map(() => 0)
        : await this.#target.allocate(spec.target, fresh.length);
      const written: Written<T>[] = [];
      const remembered: { old: string; id: number; companyId: number | null }[] = [];
      for (const [i, row] of fresh.entries()) {
        const built = await spec.build(row, ids[i]!, report);
        if (built.skip) {
          count(report.skipped, built.skip);
          continue;
        }
        const id = built.row ? ids[i]! : built.alias!;
        if (built.row) written.push({ source: row, id, row: built.row });
        else count(report.merged, built.mergedBecause ?? 'same as one here');
        remembered.push({ old: text(row.id), id, companyId: built.companyId ?? null });
        cached?.set(text(row.id), id);
      }
      await this.#target.batch(async () => {
        await this.#target.insert(
          spec.target,
          written.map((w) => w.row),
          { onConflictDoNothing: spec.noIds, withoutSearch: spec.withoutSearch },
        );
        await spec.extra?.(written, report);
        await this.#target.remember(spec.kind, remembered);
      });
      report.imported += written.length;
    }
    return report;
  }

  /**
   * A step over a table whose rows name their company (`companyId`): a row of a company that is
   * not here is skipped, and each row written gets its new id, our company and its own times
   * (`build` may set other times).
   */
  #companyStep<T extends TargetTable>(
    spec: Omit<Step<T>, 'build'> & {
      build: (
        row: SourceRow,
        own: { id: number; companyId: number; report: TableReport },
      ) => Built<TargetRow<T>> | Promise<Built<TargetRow<T>>>;
    },
  ): Promise<TableReport> {
    return this.#step({
      ...spec,
      build: async (row, id, report) => {
        const companyId = this.#companyOf.get(text(row.companyId));
        if (companyId === undefined) return NO_COMPANY;
        const built = await spec.build(row, { id, companyId, report });
        if (!built.row) return { companyId, ...built };
        const own = { id, company_id: companyId, ...this.#stamps(row), ...built.row };
        return { companyId, ...built, row: own as TargetRow<T> };
      },
    });
  }

  async #plans() {
    const existing = await this.#target.plansByName();
    await this.#step({
      table: 'Plans',
      target: 'plans',
      kind: 'plan',
      build: async (row, id) => {
        const flag = (column: string) =>
          row[column] === null || row[column] === undefined ? true : bool(row[column]);
        const plan = {
          id,
          name: text(row.name).trim(),
          users: int(row.users) ?? 0,
          connections: int(row.connections) ?? 0,
          queues: int(row.queues) ?? 0,
          value: Number(row.value ?? 0) || 0,
          use_campaigns: flag('useCampaigns'),
          use_schedules: flag('useSchedules'),
          use_internal_chat: flag('useInternalChat'),
          use_external_api: flag('useExternalApi'),
          use_kanban: flag('useKanban'),
          use_open_ai: flag('useOpenAi'),
          use_integrations: flag('useIntegrations'),
          ...this.#stamps(row),
        };
        const same = existing.get(plan.name);
        if (same !== undefined) {
          // The source's limits and flags are the ones its companies paid for.
          await this.#target.updatePlan(same, plan);
          return {
            alias: same,
            mergedBecause: 'plan of the same name here (its limits set to the source’s)',
          };
        }
        existing.set(plan.name, id);
        return { row: plan };
      },
    });
  }

  async #companiesStep() {
    const existing = await this.#target.companiesByName();
    const plans = await this.#map('plan');
    await this.#step({
      table: 'Companies',
      target: 'companies',
      kind: 'company',
      build: (row, id, report) => {
        const name = text(row.name).trim();
        const planId = plans.get(text(row.planId));
        if (planId === undefined) return { skip: 'its plan does not exist' };
        const same = existing.get(name);
        if (same !== undefined) {
          this.#companyOf.set(text(row.id), same);
          return { alias: same, companyId: same, mergedBecause: 'company of the same name here' };
        }
        existing.set(name, id);
        this.#companyOf.set(text(row.id), id);
        const due = this.#instant(row.dueDate);
        if (row.dueDate && !due) count(report.mended, 'due date that means nothing left empty');
        const schedules = json<unknown[]>(row.schedules, []);
        return {
          companyId: id,
          row: {
            id,
            name,
            email: optionalText(row.email),
            phone: optionalText(row.phone),
            plan_id: planId,
            status: row.status === null || row.status === undefined ? true : bool(row.status),
            due_date: due ? saoPauloDay(due) : null,
            recurrence: optionalText(row.recurrence) ?? 'MENSAL',
            schedules: Array.isArray(schedules) ? schedules : [],
            ...this.#stamps(row),
          },
        };
      },
    });
    // Companies imported by an earlier run.
    for (const [old, id] of await this.#map('company')) this.#companyOf.set(old, id);
  }

  async #users() {
    const emails = await this.#target.userEmails();
    await this.#companyStep({
      table: 'Users',
      target: 'users',
      kind: 'user',
      build: (row, { report }) => {
        const email = text(row.email).trim();
        if (!email) return { skip: 'no e-mail' };
        if (emails.has(email.toLowerCase()))
          return { skip: 'its e-mail already signs someone in here (case ignored)' };
        emails.add(email.toLowerCase());
        const hash = text(row.passwordHash);
        if (!/^\$2[abxy]\$\d{2}\$/.test(hash))
          count(report.mended, 'password hash that is not bcrypt (cannot sign in)');
        if (row.resetPassword) count(report.dropped, 'resetPassword');
        return {
          row: {
            name: text(row.name).trim() || email,
            email,
            password_hash: hash,
            profile: text(row.profile) === 'admin' ? 'admin' : 'user',
            super: bool(row.super),
            all_ticket: text(row.allTicket) === 'enabled' ? 'enabled' : 'desabled',
          },
        };
      },
    });
  }

  async #queues() {
    const here = await this.#target.namesOf('queues', this.#companies());
    const byName = new Map(here.map((q) => [`${q.companyId}:${q.name}`, q.id]));
    const colors = new Set(here.map((q) => `${q.companyId}:${q.color}`));
    await this.#companyStep({
      table: 'Queues',
      target: 'queues',
      kind: 'queue',
      build: (row, { id, companyId, report }) => {
        const name = text(row.name).trim();
        const same = byName.get(`${companyId}:${name}`);
        if (same !== undefined)
          return { alias: same, mergedBecause: 'queue of the same name here' };
        let color = text(row.color).trim() || '#5C59A0';
        if (colors.has(`${companyId}:${color}`)) {
          color = `#${createHash('sha1').update(`${companyId}:${name}`).digest('hex').slice(0, 6)}`;
          count(report.mended, 'colour of another queue here changed');
        }
        byName.set(`${companyId}:${name}`, id);
        colors.add(`${companyId}:${color}`);
        if (nonEmpty(row.mediaPath)) count(report.dropped, 'mediaPath (greeting file)');
        const schedules = json<unknown[]>(row.schedules, []);
        return {
          row: {
            name,
            color,
            greeting_message: text(row.greetingMessage),
            out_of_hours_message: text(row.outOfHoursMessage),
            order_queue: int(row.orderQueue),
            schedules: Array.isArray(schedules) ? schedules : [],
          },
        };
      },
    });
  }

  async #queueOptions() {
    // A menu is a tree: parents are written before their children, whatever their ids.
    const rows: SourceRow[] = [];
    for await (const page of this.#source.pages('QueueOptions', ['id'], this.options.batchSize))
      rows.push(...page);
    const byId = new Map(rows.map((row) => [text(row.id), row]));
    const depth = (row: SourceRow, seen = new Set<string>()): number => {
      const parent = row.parentId ? byId.get(text(row.parentId)) : undefined;
      if (!parent || seen.has(text(row.id))) return 0;
      seen.add(text(row.id));
      return 1 + depth(parent, seen);
    };
    rows.sort((a, b) => depth(a) - depth(b) || Number(a.id) - Number(b.id));
    const queues = await this.#map('queue');
    const options = await this.#map('queueOption');
    const companyOfQueue = await this.#companyOfMapped('queue');
    await this.#step({
      table: 'QueueOptions',
      target: 'queue_options',
      kind: 'queueOption',
      rows,
      build: (row, id, report) => {
        const queueId = queues.get(text(row.queueId));
        if (queueId === undefined) return { skip: 'its queue does not exist' };
        const companyId = companyOfQueue.get(queueId)!;
        let parentId: number | null = null;
        if (row.parentId) {
          const parent = options.get(text(row.parentId));
          if (parent === undefined) return { skip: 'its parent option does not exist' };
          parentId = parent;
        }
        if (nonEmpty(row.mediaPath)) count(report.dropped, 'mediaPath (option file)');
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            queue_id: queueId,
            parent_id: parentId,
            title: text(row.title).trim() || text(row.option),
            message: text(row.message),
            option: text(row.option).trim() || '1',
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  /** Our company of each new id of `kind`, from the map. */
  async #companyOfMapped(kind: string): Promise<Map<number, number>> {
    return this.#target.companiesOfMapped(kind);
  }

  /**
   * A link table (UserQueues, WhatsappQueues, TicketTags): both ends mapped and of one company,
   * written with ON CONFLICT DO NOTHING, so a second run adds nothing.
   */
  async #links({
    table,
    target,
    key,
    left: [leftKind, leftColumn],
    right: [rightKind, rightColumn],
  }: Link) {
    const report = this.#tableReport(table, target);
    const left = await this.#map(leftKind);
    const right = await this.#map(rightKind);
    const leftCompany = await this.#companyOfMapped(leftKind);
    const rightCompany = await this.#companyOfMapped(rightKind);
    for await (const page of this.#read(report, { key })) {
      const rows: Record<string, number>[] = [];
      for (const row of page) {
        const a = left.get(text(row[key[0]]));
        const b = right.get(text(row[key[1]]));
        if (a === undefined) {
          count(report.skipped, `its ${key[0].replace(/Id$/, '')} does not exist`);
          continue;
        }
        if (b === undefined) {
          count(report.skipped, `its ${key[1].replace(/Id$/, '')} does not exist`);
          continue;
        }
        const companyId = leftCompany.get(a)!;
        if (rightCompany.get(b) !== companyId) {
          count(report.skipped, 'its two ends belong to different companies');
          continue;
        }
        rows.push({ company_id: companyId, [leftColumn]: a, [rightColumn]: b });
      }
      await this.#target.batch(() =>
        this.#target.insert(target, rows, { onConflictDoNothing: true }),
      );
      report.imported += rows.length;
    }
  }

  async #connections() {
    const here = await this.#target.namesOf('connections', this.#companies());
    const names = new Set(here.map((c) => `${c.companyId}:${c.name}`));
    const tokens = await this.#target.connectionTokens();
    const queues = await this.#map('queue');
    const report = await this.#companyStep({
      table: 'Whatsapps',
      target: 'connections',
      kind: 'connection',
      build: (row, { companyId, report }) => {
        let name = text(row.name).trim() || `WhatsApp ${text(row.id)}`;
        if (names.has(`${companyId}:${name}`)) {
          name = `${name} (Whaticket ${text(row.id)})`;
          count(report.mended, 'name of another connection here: renamed');
        }
        names.add(`${companyId}:${name}`);
        // Connections without an API token store ''.
        let token = optionalText(row.token);
        if (token && tokens.has(token)) {
          token = null;
          count(report.mended, 'API token used by another connection here: left empty');
        }
        if (token) tokens.add(token);
        if (nonEmpty(row.farewellMessage)) count(report.dropped, 'farewellMessage');
        const transfer = row.transferQueueId
          ? (queues.get(text(row.transferQueueId)) ?? null)
          : null;
        return {
          row: {
            name,
            provider: text(row.provider) === 'cloud-api' ? 'cloud-api' : 'beta',
            status: 'DISCONNECTED',
            number: text(row.number),
            is_default: bool(row.isDefault),
            greeting_message: text(row.greetingMessage),
            complation_message: text(row.complationMessage),
            out_of_hours_message: text(row.outOfHoursMessage),
            rating_message: text(row.ratingMessage),
            expires_inactive_message: text(row.expiresInactiveMessage),
            expires_ticket: int(row.expiresTicket) ?? 0,
            time_use_bot_queues: int(row.timeUseBotQueues) ?? 0,
            max_use_bot_queues: int(row.maxUseBotQueues) ?? 3,
            time_to_transfer: int(row.timeToTransfer) ?? 0,
            transfer_queue_id: transfer,
            token,
          },
        };
      },
      // The WhatsApp Web login, in the same transaction as its connection.
      extra: async (written, report) => {
        const keys = written.flatMap(({ source, id, row }) => {
          if (row.provider !== 'beta' || !nonEmpty(source.session)) return [];
          const session = whatsappSession(text(source.session));
          if ('refused' in session) {
            count(
              report.mended,
              `WhatsApp Web session not carried over (${session.refused}): pair again`,
            );
            return [];
          }
          count(report.mended, SESSION_CARRIED);
          return session.rows.map(({ key, value }) => ({
            company_id: row.company_id,
            connection_id: id,
            key,
            value,
          }));
        });
        await this.#target.insert('connection_auth_keys', keys);
      },
    });
    const carried = report.mended[SESSION_CARRIED] ?? 0;
    this.report.notes.push(
      carried
        ? `${carried} connections carry their WhatsApp Web session: once the original is stopped for good, start each here and it opens without a QR code (the others need a new one).`
        : 'No WhatsApp Web session was carried over: each connection needs a new QR code.',
    );
  }

  /** A user's default connection, once connections exist. */
  async #userConnections() {
    const users = await this.#map('user');
    const connections = await this.#map('connection');
    const companyOfUser = await this.#companyOfMapped('user');
    const companyOfConnection = await this.#companyOfMapped('connection');
    const pairs: { userId: number; companyId: number; connectionId: number }[] = [];
    for await (const page of this.#source.pages('Users', ['id'], this.options.batchSize)) {
      for (const row of page) {
        const userId = users.get(text(row.id));
        const connectionId = row.whatsappId ? connections.get(text(row.whatsappId)) : undefined;
        if (userId === undefined || connectionId === undefined) continue;
        const companyId = companyOfUser.get(userId)!;
        if (companyOfConnection.get(connectionId) === companyId)
          pairs.push({ userId, companyId, connectionId });
      }
    }
    await this.#target.batch(() => this.#target.setUserConnections(pairs));
  }

  async #tags() {
    const here = await this.#target.namesOf('tags', this.#companies());
    const byName = new Map(here.map((t) => [`${t.companyId}:${t.name}`, t.id]));
    await this.#companyStep({
      table: 'Tags',
      target: 'tags',
      kind: 'tag',
      build: (row, { id, companyId }) => {
        const name = text(row.name).trim();
        if (!name) return { skip: 'no name' };
        const same = byName.get(`${companyId}:${name}`);
        if (same !== undefined) return { alias: same, mergedBecause: 'tag of the same name here' };
        byName.set(`${companyId}:${name}`, id);
        return {
          row: {
            name,
            color: optionalText(row.color) ?? '#5C59A0',
            kanban: int(row.kanban) ?? 0,
          },
        };
      },
    });
  }

  async #contacts() {
    const here = await this.#target.contactsOf(this.#companies());
    const people = new Map(here.map((c) => [`${c.companyId}:${numberIdentity(c.number)}`, c.id]));
    const connections = await this.#map('connection');
    let fields = new Map<string, { name: string; value: string }[]>();
    await this.#companyStep({
      table: 'Contacts',
      target: 'contacts',
      kind: 'contact',
      prefetch: async (rows) => {
        fields = new Map();
        const found = await this.#source.rowsWhereIn(
          'ContactCustomFields',
          'contactId',
          rows.map((row) => row.id),
        );
        for (const field of found) {
          const list = fields.get(text(field.contactId)) ?? [];
          list.push({ name: text(field.name), value: text(field.value) });
          fields.set(text(field.contactId), list);
        }
      },
      build: (row, { id, companyId, report }) => {
        const isGroup = bool(row.isGroup);
        const number = contactNumber(row.number, isGroup);
        if (!number) return { skip: 'no number' };
        if (number !== text(row.number).trim())
          count(report.mended, 'number written with a mask or suffix: digits kept');
        const identity = `${companyId}:${isGroup ? number : numberIdentity(number)}`;
        const same = people.get(identity);
        if (same !== undefined) {
          return {
            alias: same,
            mergedBecause: 'same number as another contact of the company (mask or ninth digit)',
          };
        }
        people.set(identity, id);
        if (row.active !== undefined && row.active !== null && !bool(row.active))
          count(report.dropped, 'active = false');
        if (bool(row.disableBot)) count(report.dropped, 'disableBot');
        const whatsappId = row.whatsappId ? (connections.get(text(row.whatsappId)) ?? null) : null;
        return {
          row: {
            name: text(row.name).trim() || number,
            number,
            email: text(row.email).trim(),
            profile_pic_url: text(row.profilePicUrl),
            is_group: isGroup,
            extra_info: fields.get(text(row.id)) ?? [],
            whatsapp_id: whatsappId,
          },
        };
      },
    });
    const mapped = await this.#map('contact');
    let orphans = 0;
    for await (const page of this.#source.pages(
      'ContactCustomFields',
      ['id'],
      this.options.batchSize,
    )) {
      orphans += page.filter((field) => !mapped.has(text(field.contactId))).length;
    }
    if (orphans)
      this.report.notes.push(`${orphans} contact extra fields belong to no contact here: skipped.`);
  }

  async #tickets() {
    const contacts = await this.#map('contact');
    const users = await this.#map('user');
    const queues = await this.#map('queue');
    const connections = await this.#map('connection');
    const options = await this.#map('queueOption');
    const companyOfContact = await this.#companyOfMapped('contact');
    const live = new Set(
      (await this.#target.liveTicketsOf(this.#companies())).map(
        (t) => `${t.contactId}:${t.whatsappId}`,
      ),
    );
    let tracking = new Map<string, SourceRow>();
    const owned = (
      map: Map<string, number>,
      old: unknown,
      companyOf: Map<number, number> | undefined,
      companyId: number,
    ) => {
      if (!old) return null;
      const id = map.get(text(old));
      if (id === undefined) return null;
      return !companyOf || companyOf.get(id) === companyId ? id : null;
    };
    const companyOfUser = await this.#companyOfMapped('user');
    const companyOfQueue = await this.#companyOfMapped('queue');
    const companyOfConnection = await this.#companyOfMapped('connection');
    await this.#companyStep({
      table: 'Tickets',
      target: 'tickets',
      kind: 'ticket',
      prefetch: async (rows) => {
        tracking = new Map();
        // The last tracking row of each ticket holds its latest acceptance and closing.
        const found = await this.#source.rowsWhereIn(
          'TicketTraking',
          'ticketId',
          rows.map((row) => row.id),
        );
        found.sort((a, b) => Number(a.id) - Number(b.id));
        for (const row of found) tracking.set(text(row.ticketId), row);
      },
      build: (row, { companyId, report }) => {
        const contactId = contacts.get(text(row.contactId));
        if (contactId === undefined || companyOfContact.get(contactId) !== companyId) {
          return { skip: 'its contact does not exist' };
        }
        let status = text(row.status) as (typeof TICKET_STATUSES)[number];
        if (!TICKET_STATUSES.includes(status)) {
          count(report.mended, `status '${status}' imported as closed`);
          status = 'closed';
        }
        const whatsappId = owned(connections, row.whatsappId, companyOfConnection, companyId);
        if (status !== 'closed') {
          const pair = `${contactId}:${whatsappId}`;
          if (live.has(pair)) {
            count(report.mended, 'a second live ticket of the same contact and connection: closed');
            status = 'closed';
          } else live.add(pair);
        }
        const created = this.#instant(row.createdAt);
        if (!created)
          count(report.mended, 'creation date that means nothing: set to the import time');
        const track = tracking.get(text(row.id));
        if (row.typebotSessionId) count(report.dropped, 'typebotSessionId');
        if (row.integrationId)
          count(report.dropped, 'integrationId (its bot session is not carried over)');
        const uuid = text(row.uuid);
        return {
          row: {
            uuid: /^[0-9a-f-]{36}$/i.test(uuid) ? uuid : undefined,
            status,
            contact_id: contactId,
            user_id: owned(users, row.userId, companyOfUser, companyId),
            queue_id: owned(queues, row.queueId, companyOfQueue, companyId),
            whatsapp_id: whatsappId,
            last_message: text(row.lastMessage),
            unread_messages: int(row.unreadMessages) ?? 0,
            is_group: bool(row.isGroup),
            chatbot: bool(row.chatbot),
            queue_option_id: row.queueOptionId
              ? (options.get(text(row.queueOptionId)) ?? null)
              : null,
            amount_used_bot_queues: int(row.amountUsedBotQueues) ?? 0,
            accepted_at: track ? this.#instant(track.startedAt) : null,
            finished_at: status === 'closed' && track ? this.#instant(track.finishedAt) : null,
            created_at: created ?? new Date(),
            updated_at: this.#instant(row.updatedAt) ?? created ?? new Date(),
          },
        };
      },
    });
  }

  async #notes() {
    const tickets = await this.#map('ticket');
    const users = await this.#map('user');
    const contacts = await this.#map('contact');
    const companyOfTicket = await this.#companyOfMapped('ticket');
    const companyOfUser = await this.#companyOfMapped('user');
    const contactOfTicket = await this.#target.contactOfTickets();
    await this.#step({
      table: 'TicketNotes',
      target: 'ticket_notes',
      kind: 'note',
      build: (row, id) => {
        const ticketId = tickets.get(text(row.ticketId));
        if (ticketId === undefined) return { skip: 'its ticket does not exist' };
        const companyId = companyOfTicket.get(ticketId)!;
        const userId = row.userId ? users.get(text(row.userId)) : undefined;
        const contactId = contacts.get(text(row.contactId)) ?? contactOfTicket.get(ticketId)!;
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            note: text(row.note),
            user_id:
              userId !== undefined && companyOfUser.get(userId) === companyId ? userId : null,
            ticket_id: ticketId,
            contact_id: contactId,
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  async #ratings() {
    const tickets = await this.#map('ticket');
    const users = await this.#map('user');
    const companyOfTicket = await this.#companyOfMapped('ticket');
    const companyOfUser = await this.#companyOfMapped('user');
    const rated = await this.#target.ratedTickets();
    await this.#step({
      table: 'UserRatings',
      target: 'user_ratings',
      kind: 'rating',
      build: (row, id) => {
        const ticketId = tickets.get(text(row.ticketId));
        if (ticketId === undefined) return { skip: 'its ticket does not exist' };
        if (rated.has(ticketId)) return { skip: 'a second rating of the same ticket' };
        const rate = int(row.rate);
        if (rate === null || rate < 1 || rate > 3) return { skip: 'a rate that is not 1 to 3' };
        rated.add(ticketId);
        const companyId = companyOfTicket.get(ticketId)!;
        const userId = row.userId ? users.get(text(row.userId)) : undefined;
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            ticket_id: ticketId,
            user_id:
              userId !== undefined && companyOfUser.get(userId) === companyId ? userId : null,
            rate,
            created_at: this.#instant(row.createdAt) ?? new Date(),
          },
        };
      },
    });
  }

  async #messages() {
    const tickets = await this.#target.ticketsByOldId();
    const contacts = await this.#map('contact');
    // A message whose WhatsApp id its company holds here already (a --merge target that received
    // it, an earlier import of the same data from another address) is that message: the source
    // row is mapped onto it, so nothing is doubled and quotes of it find it.
    const mayBeHere = await this.#target.hasOtherMessages();
    let here = new Map<string, { id: number; companyId: number }[]>();
    const columns = await this.#source.columns('Messages');
    const report = await this.#step({
      table: 'Messages',
      target: 'messages',
      kind: 'message',
      columns: MESSAGE_COLUMNS.filter((column) => columns.has(column)),
      // A page holds messages of thousands of tickets: adding its words as it is written would
      // rewrite each ticket's words once per page, so each ticket's are built once at the end.
      withoutSearch: true,
      extra: async (written) => {
        const tickets = new Map<number, { old: string; id: number; companyId: number }>();
        for (const { source, row } of written) {
          const id = row.ticket_id as number;
          tickets.set(id, { old: text(source.ticketId), id, companyId: row.company_id as number });
        }
        await this.#target.searchLater([...tickets.values()]);
      },
      prefetch: async (rows) => {
        if (!mayBeHere) return;
        here = new Map();
        const found = await this.#target.messagesByWhatsappId(
          this.#companies(),
          rows.map((row) => text(row.id)),
        );
        for (const message of found) {
          here.set(message.whatsappId, [...(here.get(message.whatsappId) ?? []), message]);
        }
      },
      build: async (row, id, report) => {
        const ticket = tickets.get(text(row.ticketId));
        if (!ticket) return { skip: 'its ticket does not exist' };
        const same = here.get(text(row.id))?.find((m) => m.companyId === ticket.companyId);
        if (same) {
          return {
            alias: same.id,
            companyId: ticket.companyId,
            mergedBecause: 'a message of the company here has its WhatsApp id (that one is kept)',
          };
        }
        const fromMe = bool(row.fromMe);
        let created = this.#instant(row.createdAt);
        if (!created) {
          count(report.mended, 'date that means nothing: set to its ticket’s');
          created = ticket.createdAt;
        }
        const media = row.mediaUrl
          ? await this.#copyMedia(row, ticket.companyId, report)
          : undefined;
        if (nonEmpty(row.reactions) && json<unknown[]>(row.reactions, []).length)
          count(report.dropped, 'reactions');
        const contactId = fromMe ? null : (contacts.get(text(row.contactId)) ?? null);
        return {
          companyId: ticket.companyId,
          row: {
            id,
            company_id: ticket.companyId,
            ticket_id: ticket.id,
            contact_id: contactId,
            connection_id: ticket.connectionId,
            provider_message_id: text(row.id),
            body: text(row.body),
            from_me: fromMe,
            read: bool(row.read),
            media_type: mediaType(row.mediaType, media !== undefined),
            media_path: media?.key ?? null,
            media_name: media?.name ?? null,
            media_mime: media?.mime ?? null,
            ack: ack(row.ack, fromMe),
            send_state: fromMe ? 'sent' : null,
            is_deleted: bool(row.isDeleted),
            is_edited: bool(row.isEdited),
            is_forwarded: bool(row.isForwarded),
            participant: optionalText(row.participant),
            created_at: created,
            updated_at: this.#instant(row.updatedAt) ?? created,
          },
        };
      },
    });
    const after = performance.now();
    await this.#searchWords();
    await this.#quotes(report);
    report.seconds =
      Math.round((report.seconds ?? 0) * 10 + (performance.now() - after) / 100) / 10;
  }

  /**
   * The search words of the tickets that got messages (in this run or in one killed before it
   * got here), each ticket's built once from all its messages, a page of tickets a transaction.
   */
  async #searchWords() {
    const table = 'Messages (search words)';
    const total = await this.#target.searchPending();
    let done = 0;
    for (;;) {
      const built = await this.#target.batch(() =>
        this.#target.buildSearch(this.options.batchSize),
      );
      if (!built) break;
      done += built;
      this.options.onProgress?.({ table, done, total });
    }
    this.options.onProgress?.({ table, done, total, finished: true });
  }

  /**
   * Quotes, once every message is here (a quote may name a message read on a later page): the
   * quoting and quoted rows of each source page of quotes, linked by one UPDATE. Rewriting a
   * link to the same message changes nothing, so a resumed or second run does it again safely.
   */
  async #quotes(report: TableReport) {
    for await (const page of this.#source.pages('Messages', ['id'], this.options.batchSize, {
      columns: ['id', 'quotedMsgId'],
      notNull: 'quotedMsgId',
    })) {
      const olds = page.flatMap((row) => [text(row.id), text(row.quotedMsgId)]);
      const found = await this.#target.lookup('message', [...new Set(olds)]);
      const links: { id: number; quoted: number }[] = [];
      for (const row of page) {
        const id = found.get(text(row.id));
        if (id === undefined) continue;
        const quoted = found.get(text(row.quotedMsgId));
        if (quoted === undefined)
          count(report.mended, 'quote of a message that is not here: left out');
        else links.push({ id, quoted });
      }
      await this.#target.batch(() => this.#target.linkQuotes(links));
    }
  }

  /** A uuid drawn from this source and `seed`: the same on every run, resumed ones included. */
  #stableUuid(seed: string): string {
    const hex = createHash('sha256').update(`${this.#source.label}:${seed}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  /** A message's file, from public/company<id>/ (older versions kept it at public/ itself). */
  #copyMedia(row: SourceRow, companyId: number, report: TableReport) {
    return this.#copyFile({
      name: text(row.mediaUrl),
      folders: [`company${text(row.companyId)}`, '.'],
      seed: text(row.id),
      companyId,
      report,
      missing: 'media file missing in --media: text kept',
      noMedia: 'media file not copied (no --media)',
    });
  }

  /**
   * A file of the original's public/ folder (looked for in `folders` below it, under its own
   * name's last part only, so a name cannot reach out of the folder), copied into our storage
   * under a generated name: the same name for the same `seed`, so a resumed run writes the same
   * file again instead of a second one.
   */
  async #copyFile(file: {
    name: string;
    folders: string[];
    seed: string;
    companyId: number;
    report: TableReport;
    missing: string;
    noMedia: string;
  }) {
    const dir = this.options.mediaDir;
    if (!dir) {
      count(file.report.mended, file.noMedia);
      return undefined;
    }
    const name = basename(file.name.replaceAll('\\', '/'));
    const root = resolve(dir);
    let found: string | undefined;
    for (const folder of file.folders) {
      const candidate = join(root, folder, name);
      if (!candidate.startsWith(root + sep) || name === '..' || name === '.' || !name) continue;
      const info = await stat(candidate).catch(() => undefined);
      if (info?.isFile()) {
        found = candidate;
        break;
      }
    }
    if (!found) {
      count(file.report.mended, file.missing);
      return undefined;
    }
    const { extension, mime } = fileType(name);
    const uuid = this.#stableUuid(file.seed);
    const key = `${file.companyId}/${uuid}.${extension}`;
    if (!this.#target.dryRun) {
      const path = this.options.storage.pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await copyFile(found, path);
    }
    return { key, mime, name };
  }

  async #quickMessages() {
    const users = await this.#map('user');
    const companyOfUser = await this.#companyOfMapped('user');
    const here = await this.#target.quickShortcodesOf(this.#companies());
    const scope = (companyId: number, geral: boolean, userId: number | null, shortcode: string) =>
      `${companyId}:${geral ? '*' : userId}:${shortcode.toLowerCase()}`;
    const taken = new Set(here.map((q) => scope(q.companyId, q.geral, q.userId, q.shortcode)));
    await this.#companyStep({
      table: 'QuickMessages',
      target: 'quick_messages',
      kind: 'quickMessage',
      build: (row, { companyId, report }) => {
        const mapped = row.userId ? users.get(text(row.userId)) : undefined;
        const userId =
          mapped !== undefined && companyOfUser.get(mapped) === companyId ? mapped : null;
        const geral = bool(row.geral);
        const original = text(row.shortcode).trim();
        if (!original) return { skip: 'no shortcode' };
        let shortcode = original;
        for (let n = 2; taken.has(scope(companyId, geral, userId, shortcode)); n++)
          shortcode = `${original}-${n}`;
        if (shortcode !== original)
          count(report.mended, 'shortcode differing only in case from another: numbered');
        taken.add(scope(companyId, geral, userId, shortcode));
        if (nonEmpty(row.mediaPath))
          count(report.dropped, 'mediaPath (quick reply files not copied yet)');
        return {
          row: {
            user_id: userId,
            shortcode,
            message: text(row.message),
            geral,
          },
        };
      },
    });
  }

  async #settings() {
    const report = this.#tableReport('Settings', 'settings');
    const map = await this.#map('setting');
    const box = new SecretBox(this.options.secretsKey);
    const rows: { companyId: number; key: string; value: string; old: string }[] = [];
    for await (const page of this.#read(report)) {
      for (const row of page) {
        if (map.has(text(row.id))) {
          report.already++;
          continue;
        }
        const companyId = this.#companyOf.get(text(row.companyId));
        if (companyId === undefined) {
          count(report.skipped, 'its company does not exist');
          continue;
        }
        const key = text(row.key) as SettingKey;
        const value = text(row.value);
        if (!value && SECRET_SETTING_KEYS.includes(key)) {
          count(report.skipped, `empty (${key})`);
          continue;
        }
        if (!(key in SETTING_VALUES)) {
          count(report.skipped, `no such setting here (${key})`);
          continue;
        }
        if (!SETTING_VALUES[key].safeParse(value).success) {
          count(report.skipped, `value not accepted here (${key})`);
          continue;
        }
        // Secrets are sealed under our SECRETS_KEY, as the settings service keeps them.
        rows.push({
          companyId,
          key,
          value: SECRET_SETTING_KEYS.includes(key) ? box.seal(value) : value,
          old: text(row.id),
        });
      }
    }
    await this.#target.batch(async () => {
      await this.#target.upsertSettings(rows);
      await this.#target.remember(
        'setting',
        rows.map((row) => ({ old: row.old, id: 0, companyId: row.companyId })),
      );
    });
    report.imported = rows.length;
  }

  async #schedules() {
    const contacts = await this.#map('contact');
    const tickets = await this.#map('ticket');
    const users = await this.#map('user');
    const connections = await this.#map('connection');
    const companyOf = {
      contact: await this.#companyOfMapped('contact'),
      ticket: await this.#companyOfMapped('ticket'),
      user: await this.#companyOfMapped('user'),
      connection: await this.#companyOfMapped('connection'),
    };
    await this.#companyStep({
      table: 'Schedules',
      target: 'schedules',
      kind: 'schedule',
      build: (row, { companyId, report }) => {
        const contactId = contacts.get(text(row.contactId));
        if (contactId === undefined || companyOf.contact.get(contactId) !== companyId) {
          return { skip: 'its contact does not exist' };
        }
        const sendAt = this.#instant(row.sendAt);
        if (!sendAt) return { skip: 'no date to send it' };
        const own = (map: Map<string, number>, company: Map<number, number>, old: unknown) => {
          const found = old ? map.get(text(old)) : undefined;
          return found !== undefined && company.get(found) === companyId ? found : null;
        };
        if (nonEmpty(row.repeatEvery) || nonEmpty(row.selectDaysRecorrenci))
          count(report.dropped, 'repetition');
        if (nonEmpty(row.mediaPath))
          count(report.dropped, 'mediaPath (schedule files not copied yet)');
        return {
          row: {
            body: text(row.body),
            send_at: sendAt,
            sent_at: this.#instant(row.sentAt),
            contact_id: contactId,
            ticket_id: own(tickets, companyOf.ticket, row.ticketId),
            whatsapp_id: own(connections, companyOf.connection, row.whatsappId),
            user_id: own(users, companyOf.user, row.userId),
            status: scheduleStatus(row.status),
          },
        };
      },
    });
  }
  async #contactLists() {
    await this.#lists('ContactLists', 'contact_lists', 'contactList');
  }

  async #contactListItems() {
    const lists = await this.#map('contactList');
    const companyOfList = await this.#companyOfMapped('contactList');
    const numbers = await this.#target.listNumbers([...lists.values()]);
    await this.#step({
      table: 'ContactListItems',
      target: 'contact_list_items',
      kind: 'contactListItem',
      build: (row, id, report) => {
        const listId = lists.get(text(row.contactListId));
        if (listId === undefined) return { skip: 'its list does not exist' };
        const number = contactNumber(row.number, false);
        if (!number) return { skip: 'no number' };
        if (number !== text(row.number).trim())
          count(report.mended, 'number written with a mask: digits kept');
        if (numbers.has(`${listId}:${number}`)) return { skip: 'number already in the list' };
        numbers.add(`${listId}:${number}`);
        const companyId = companyOfList.get(listId)!;
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            contact_list_id: listId,
            name: text(row.name).trim() || number,
            number,
            email: text(row.email).trim(),
            // The original writes false before it could tell: only a true is known.
            is_whatsapp_valid: bool(row.isWhatsappValid) ? true : null,
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  /** Prompts, their OpenAI and voice keys sealed under our SECRETS_KEY; then who answers with them. */
  async #prompts() {
    const queues = await this.#map('queue');
    const companyOfQueue = await this.#companyOfMapped('queue');
    const box = new SecretBox(this.options.secretsKey);
    const sealed = (value: unknown) => {
      const plain = optionalText(value);
      return plain
        ? { encrypted: box.seal(plain), hint: secretHint(plain) }
        : { encrypted: null, hint: null };
    };
    await this.#companyStep({
      table: 'Prompts',
      target: 'prompts',
      kind: 'prompt',
      build: (row, { companyId, report }) => {
        const queueId = queues.get(text(row.queueId));
        if (queueId === undefined || companyOfQueue.get(queueId) !== companyId) {
          return { skip: 'its queue does not exist' };
        }
        const apiKey = sealed(row.apiKey);
        const voiceKey = sealed(row.voiceKey);
        if (int(row.totalTokens)) count(report.dropped, 'token counters');
        return {
          row: {
            name: text(row.name).trim() || `Prompt ${text(row.id)}`,
            prompt: text(row.prompt),
            voice: optionalText(row.voice) ?? 'texto',
            voice_key_encrypted: voiceKey.encrypted,
            voice_key_hint: voiceKey.hint,
            voice_region: text(row.voiceRegion),
            max_tokens: int(row.maxTokens) ?? 100,
            temperature: Number(row.temperature ?? 1) || 0,
            api_key_encrypted: apiKey.encrypted,
            api_key_hint: apiKey.hint,
            queue_id: queueId,
            max_messages: int(row.maxMessages) ?? 10,
          },
        };
      },
    });
    await this.#references('promptId', 'prompt');
  }

  /**
   * Queues and connections pointed at their prompt or integration, as the source's promptId or
   * integrationId says (within their company).
   */
  async #references(column: 'promptId' | 'integrationId', kind: 'prompt' | 'integration') {
    const refs = await this.#map(kind);
    for (const [table, own, target] of [
      ['Queues', 'queue', 'queues'],
      ['Whatsapps', 'connection', 'connections'],
    ] as const) {
      const ids = await this.#map(own);
      const pairs: { id: number; ref: number }[] = [];
      for await (const page of this.#source.pages(table, ['id'], this.options.batchSize, {
        columns: ['id', column],
        notNull: column,
      })) {
        for (const row of page) {
          const id = ids.get(text(row.id));
          const ref = refs.get(text(row[column]));
          if (id !== undefined && ref !== undefined) pairs.push({ id, ref });
        }
      }
      const to = column === 'promptId' ? 'prompt_id' : 'integration_id';
      await this.#target.batch(() => this.#target.setReferences(target, to, pairs));
    }
  }

  /** The platform's help videos (the super user's, shared by every company). */
  async #helps() {
    await this.#step({
      table: 'Helps',
      target: 'helps',
      kind: 'help',
      build: (row, id, report) => {
        if (nonEmpty(row.link)) count(report.dropped, 'link');
        return {
          row: {
            id,
            title: text(row.title).trim() || 'Ajuda',
            description: text(row.description),
            video: text(row.video),
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  /** Announcements are the platform's here, read by every company, as the original shows them. */
  async #announcements() {
    await this.#step({
      table: 'Announcements',
      target: 'announcements',
      kind: 'announcement',
      build: (row, id, report) => {
        if (nonEmpty(row.mediaPath))
          count(report.dropped, 'mediaPath (announcement files not copied yet)');
        const priority = int(row.priority);
        return {
          row: {
            id,
            title: text(row.title).trim() || 'Aviso',
            text: text(row.text),
            priority: priority !== null && priority >= 1 && priority <= 3 ? priority : 3,
            status: row.status === null || row.status === undefined ? true : bool(row.status),
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  /** The company's bot and event integrations, their Dialogflow key sealed under our SECRETS_KEY. */
  async #integrations() {
    const box = new SecretBox(this.options.secretsKey);
    await this.#companyStep({
      table: 'QueueIntegrations',
      target: 'queue_integrations',
      kind: 'integration',
      build: (row) => {
        const type = text(row.type).trim().toLowerCase() as IntegrationType;
        if (!INTEGRATION_TYPES.includes(type))
          return { skip: `no such integration here (${type})` };
        const name = text(row.name).trim() || `${type} ${text(row.id)}`;
        const key = type === 'dialogflow' ? optionalText(row.jsonContent) : null;
        // Receivers of events get signed posts here: each gets its own new signing secret.
        const secret = EVENT_INTEGRATION_TYPES.includes(type)
          ? randomBytes(24).toString('base64url')
          : null;
        // The original's migration gives the URL the default true, stored as the text 'true'.
        const url = text(row.urlN8N).trim();
        return {
          row: {
            type,
            name,
            project_name: NAMED_PROJECT_TYPES.includes(type) ? name : text(row.projectName),
            json_content_encrypted: key ? box.seal(key) : null,
            json_content_hint: key
              ? text(json<{ client_email?: unknown }>(key, {}).client_email)
              : null,
            language: optionalText(row.language) ?? 'pt-BR',
            url_n8n: url === 'true' ? '' : url,
            typebot_slug: text(row.typebotSlug),
            typebot_expires: int(row.typebotExpires) ?? 0,
            typebot_delay_message: int(row.typebotDelayMessage) ?? 1000,
            typebot_keyword_finish: text(row.typebotKeywordFinish),
            typebot_keyword_restart: text(row.typebotKeywordRestart),
            typebot_unknown_message: text(row.typebotUnknownMessage),
            typebot_restart_message: text(row.typebotRestartMessage),
            secret_encrypted: secret ? box.seal(secret) : null,
            secret_hint: secret ? secret.slice(-4) : null,
          },
        };
      },
    });
    await this.#references('integrationId', 'integration');
  }

  /** A company's named lists (of contacts, of files): one without a name is called by its id. */
  async #lists(
    table: 'ContactLists' | 'Files',
    target: 'contact_lists' | 'file_lists',
    kind: string,
  ) {
    await this.#companyStep({
      table,
      target,
      kind,
      build: (row) => {
        return {
          row: {
            name: text(row.name).trim() || `Lista ${text(row.id)}`,
            ...(target === 'file_lists' ? { message: text(row.message) } : {}),
          },
        };
      },
    });
  }

  /** File lists, each file copied from public/company<id>/fileList/<list id>/. */
  async #fileLists() {
    await this.#lists('Files', 'file_lists', 'fileList');
    const lists = await this.#map('fileList');
    const companyOfList = await this.#companyOfMapped('fileList');
    // The files are in the folder of the list's company in the source.
    let sourceCompany = new Map<string, string>();
    await this.#step({
      table: 'FilesOptions',
      target: 'file_list_options',
      kind: 'fileOption',
      prefetch: async (rows) => {
        const found = await this.#source.rowsWhereIn(
          'Files',
          'id',
          rows.map((row) => row.fileId),
        );
        sourceCompany = new Map(found.map((list) => [text(list.id), text(list.companyId)]));
      },
      build: async (row, id, report) => {
        const listId = lists.get(text(row.fileId));
        if (listId === undefined) return { skip: 'its file list does not exist' };
        const companyId = companyOfList.get(listId)!;
        const path = text(row.path);
        const file = path
          ? await this.#copyFile({
              name: path,
              folders: [
                join(`company${sourceCompany.get(text(row.fileId))}`, 'fileList', text(row.fileId)),
              ],
              seed: `fileOption:${text(row.id)}`,
              companyId,
              report,
              missing: 'file missing in --media: kept without its file',
              noMedia: 'file not copied (no --media)',
            })
          : undefined;
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            file_list_id: listId,
            name: text(row.name).trim() || file?.name || `Arquivo ${text(row.id)}`,
            media_path: file?.key ?? null,
            media_type: file ? (optionalText(row.mediaType) ?? file.mime) : null,
            media_name: file?.name ?? null,
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  /**
   * Campaigns with the original's states, except two that would send on their own here: one in
   * progress is cancelled (restarted here, it writes only to who was not written to), one whose
   * scheduled time has passed without starting is made inactive.
   */
  async #campaigns() {
    const own = await this.#owned(['connection', 'contactList', 'fileList']);
    await this.#companyStep({
      table: 'Campaigns',
      target: 'campaigns',
      kind: 'campaign',
      build: async (row, { companyId, report }) => {
        const scheduledAt = this.#instant(row.scheduledAt);
        let status = text(row.status).trim().toUpperCase() as CampaignStatus;
        if (!CAMPAIGN_STATUSES.includes(status)) {
          count(report.mended, `status '${status}' imported as INATIVA`);
          status = 'INATIVA';
        }
        if (status === 'EM_ANDAMENTO') {
          count(report.mended, 'in progress: cancelled (restart it here to go on)');
          status = 'CANCELADA';
        }
        if (status === 'PROGRAMADA' && (!scheduledAt || scheduledAt <= new Date())) {
          count(report.mended, 'scheduled for a time gone by: made inactive');
          status = 'INATIVA';
        }
        const media = row.mediaPath
          ? await this.#copyFile({
              name: text(row.mediaPath),
              folders: [`company${text(row.companyId)}`, '.'],
              seed: `campaign:${text(row.id)}`,
              companyId,
              report,
              missing: 'media file missing in --media: sent without it',
              noMedia: 'media file not copied (no --media)',
            })
          : undefined;
        const messages = Object.fromEntries(
          [1, 2, 3, 4, 5].flatMap((n) => [
            [`message${n}`, text(row[`message${n}`])],
            [`confirmation_message${n}`, text(row[`confirmationMessage${n}`])],
          ]),
        );
        return {
          row: {
            name: text(row.name).trim() || `Campanha ${text(row.id)}`,
            ...messages,
            status,
            confirmation: bool(row.confirmation),
            scheduled_at: scheduledAt,
            completed_at: this.#instant(row.completedAt),
            whatsapp_id: own.connection(row.whatsappId, companyId),
            contact_list_id: own.contactList(row.contactListId, companyId),
            file_list_id: own.fileList(row.fileListId, companyId),
            media_path: media?.key ?? null,
            media_name: media ? (optionalText(row.mediaName) ?? media.name) : null,
            media_mime: media?.mime ?? null,
          },
        };
      },
    });
  }

  /** For each kind, the new id of an old one when it is of the given company, or null. */
  async #owned<K extends string>(
    kinds: K[],
  ): Promise<Record<K, (old: unknown, companyId: number) => number | null>> {
    const found = {} as Record<K, (old: unknown, companyId: number) => number | null>;
    for (const kind of kinds) {
      const map = await this.#map(kind);
      const companyOf = await this.#companyOfMapped(kind);
      found[kind] = (old, companyId) => {
        const id = old ? map.get(text(old)) : undefined;
        return id !== undefined && companyOf.get(id) === companyId ? id : null;
      };
    }
    return found;
  }

  /** Campaign settings, one per company and key, kept as the JSON text both products store. */
  async #campaignSettings() {
    const taken = await this.#target.keysOf('campaign_settings', this.#companies());
    const shape = campaignSettingsValuesSchema.shape as Record<string, z.ZodType>;
    await this.#companyStep({
      table: 'CampaignSettings',
      target: 'campaign_settings',
      kind: 'campaignSetting',
      build: (row, { companyId }) => {
        const key = text(row.key).trim();
        if (!(key in shape)) return { skip: `no such campaign setting here (${key})` };
        const parsed = shape[key]!.safeParse(json<unknown>(row.value, text(row.value)));
        if (!parsed.success) return { skip: `value not accepted here (${key})` };
        if (taken.has(`${companyId}:${key}`)) return { skip: 'set here already' };
        taken.add(`${companyId}:${key}`);
        return {
          row: {
            key,
            value: JSON.stringify(parsed.data),
          },
        };
      },
    });
  }

  /**
   * Each campaign's recipients with when they were written to, asked and confirmed; the name and
   * e-mail are the list item's the recipient came from.
   */
  async #campaignShipping() {
    const campaigns = await this.#map('campaign');
    const companyOfCampaign = await this.#companyOfMapped('campaign');
    const seen = await this.#target.keysOf('campaign_shipping', this.#companies());
    let items = new Map<string, SourceRow>();
    await this.#step({
      table: 'CampaignShipping',
      target: 'campaign_shipping',
      kind: 'campaignShipping',
      prefetch: async (rows) => {
        const found = await this.#source.rowsWhereIn(
          'ContactListItems',
          'id',
          rows.map((row) => row.contactId).filter(Boolean),
        );
        items = new Map(found.map((item) => [text(item.id), item]));
      },
      build: (row, id, report) => {
        const campaignId = campaigns.get(text(row.campaignId));
        if (campaignId === undefined) return { skip: 'its campaign does not exist' };
        const companyId = companyOfCampaign.get(campaignId)!;
        const number = contactNumber(row.number, false);
        if (!number) return { skip: 'no number' };
        if (number !== text(row.number).trim())
          count(report.mended, 'number written with a mask: digits kept');
        const key = `${companyId}:${campaignId}:${number}`;
        if (seen.has(key)) return { skip: 'number already in the campaign' };
        seen.add(key);
        const item = items.get(text(row.contactId));
        const delivered = this.#instant(row.deliveredAt);
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            campaign_id: campaignId,
            number,
            name: text(item?.name).trim(),
            email: text(item?.email).trim(),
            sent_at: delivered,
            delivered_at: delivered,
            // Written to already: a restart here writes only to the others.
            skipped: delivered ? 'imported' : null,
            confirmation_requested_at: this.#instant(row.confirmationRequestedAt),
            confirmed_at: this.#instant(row.confirmedAt),
            ...this.#stamps(row),
          },
        };
      },
    });
  }

  /** Internal chats: the chat, its members with their unread counts, its messages. */
  async #chats() {
    const users = await this.#owned(['user']);
    const uuids = await this.#target.chatUuids();
    await this.#companyStep({
      table: 'Chats',
      target: 'chats',
      kind: 'chat',
      build: (row, { companyId, report }) => {
        // The original's default uuid is drawn once per process: chats may share one.
        let uuid = text(row.uuid).toLowerCase();
        if (
          !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid) ||
          uuids.has(uuid)
        ) {
          uuid = this.#stableUuid(`chat:${text(row.id)}`);
          count(report.mended, 'uuid missing or another chat’s: a new one');
        }
        uuids.add(uuid);
        return {
          row: {
            uuid,
            title: text(row.title).trim() || `Chat ${text(row.id)}`,
            owner_id: users.user(row.ownerId, companyId),
            last_message: text(row.lastMessage),
          },
        };
      },
    });
    const chats = await this.#map('chat');
    const companyOfChat = await this.#companyOfMapped('chat');
    const members = new Set<string>();
    await this.#step({
      table: 'ChatUsers',
      target: 'chat_users',
      kind: 'chatUser',
      noIds: true,
      build: (row) => {
        const chatId = chats.get(text(row.chatId));
        if (chatId === undefined) return { skip: 'its chat does not exist' };
        const companyId = companyOfChat.get(chatId)!;
        const userId = users.user(row.userId, companyId);
        if (userId === null) return { skip: 'its user does not exist in the chat’s company' };
        if (members.has(`${chatId}:${userId}`)) return { skip: 'a member twice' };
        members.add(`${chatId}:${userId}`);
        return {
          companyId,
          row: {
            company_id: companyId,
            chat_id: chatId,
            user_id: userId,
            unreads: Math.max(0, int(row.unreads) ?? 0),
            ...this.#stamps(row),
          },
        };
      },
    });
    // The chat's company in the source names the folder of its files.
    let sourceCompany = new Map<string, string>();
    await this.#step({
      table: 'ChatMessages',
      target: 'chat_messages',
      kind: 'chatMessage',
      prefetch: async (rows) => {
        const found = await this.#source.rowsWhereIn(
          'Chats',
          'id',
          rows.filter((row) => nonEmpty(row.mediaPath)).map((row) => row.chatId),
        );
        sourceCompany = new Map(found.map((chat) => [text(chat.id), text(chat.companyId)]));
      },
      build: async (row, id, report) => {
        const chatId = chats.get(text(row.chatId));
        if (chatId === undefined) return { skip: 'its chat does not exist' };
        const companyId = companyOfChat.get(chatId)!;
        const file = nonEmpty(row.mediaPath)
          ? await this.#copyFile({
              name: text(row.mediaPath),
              folders: [`company${sourceCompany.get(text(row.chatId))}`, '.'],
              seed: `chatMessage:${text(row.id)}`,
              companyId,
              report,
              missing: 'file missing in --media: text kept',
              noMedia: 'file not copied (no --media)',
            })
          : undefined;
        return {
          companyId,
          row: {
            id,
            company_id: companyId,
            chat_id: chatId,
            sender_id: users.user(row.senderId, companyId),
            message: text(row.message),
            media_path: file?.key ?? null,
            media_name: file ? (optionalText(row.mediaName) ?? file.name) : null,
            media_mime: file?.mime ?? null,
            created_at: this.#instant(row.createdAt) ?? new Date(),
          },
        };
      },
    });
  }

  /**
   * Invoices: open and paid ones (paid at their last change), one per company and due date as
   * here; cancelled ones have no place here.
   */
  async #invoices() {
    const taken = await this.#target.keysOf('invoices', this.#companies());
    await this.#companyStep({
      table: 'Invoices',
      target: 'invoices',
      kind: 'invoice',
      build: (row, { companyId }) => {
        const status = text(row.status).trim().toLowerCase();
        if (status !== 'open' && status !== 'paid')
          return { skip: `status '${status}' (no place here)` };
        // The original writes the company's day with its offset ('2024-03-10T00:00:00-03:00').
        const day = /^\d{4}-\d{2}-\d{2}/.exec(text(row.dueDate).trim())?.[0];
        if (!day || Number.isNaN(Date.parse(day))) return { skip: 'no due date' };
        if (taken.has(`${companyId}:${day}`))
          return { skip: 'a second invoice of the same due date' };
        taken.add(`${companyId}:${day}`);
        const stamps = this.#stamps(row);
        return {
          row: {
            detail: text(row.detail).trim() || 'Fatura',
            value: Math.round((Number(row.value ?? 0) || 0) * 100) / 100,
            due_date: day,
            status,
            paid_at: status === 'paid' ? stamps.updated_at : null,
            ...stamps,
          },
        };
      },
    });
  }
}

async function* chunks<T>(rows: T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
