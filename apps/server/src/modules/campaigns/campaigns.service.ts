import {
  CAMPAIGN_CONFIRMATION_KEYS,
  CAMPAIGN_MEDIA_TYPES,
  CAMPAIGN_MESSAGE_KEYS,
  type Campaign,
  type CampaignCreate,
  type CampaignDetail,
  type CampaignListQuery,
  type CampaignSetting,
  type CampaignSettingsSave,
  type CampaignSettingsValues,
  type CampaignStatus,
  type CampaignUpdate,
  campaignMediaFormSchema,
  campaignSettingsValuesSchema,
  DEFAULT_CAMPAIGN_SETTINGS,
  DEFAULT_PAGE_SIZE,
} from '@atendi/shared';
import { TZDate } from '@date-fns/tz';
import { globalDb } from '../../db/global';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { CampaignReplyState } from '../../platform/events';
import { iso, isoRequired, page, sliceMore } from '../../platform/routes';
import { forgetStored, type MultipartSource, replaceAttachment } from '../../platform/uploads';
import { assertCampaignsEnabled } from '../contact-lists/contact-lists.service';
import type { ServiceDeps } from '../deps';
import { type OutboundSender, storePending } from '../messages/messages.outbound';
import { resolveVariables } from '../messages/messages.variables';
import { instantOf } from '../schedules/schedules.service';
import { companySetting } from '../settings/settings.values';
import type { TicketLifecycle } from '../tickets/tickets.lifecycle';
import {
  activeCampaigns,
  type CampaignChanges,
  type CampaignRow,
  type CampaignWithNames,
  campaignById,
  campaignRow,
  campaignSettingRows,
  campaignsPage,
  companiesWithActiveCampaigns,
  confirmShipping,
  connectionOf,
  contactForNumber,
  copyRecipientsOf,
  deleteCampaign,
  deliverShippingOfMessage,
  deliveryState,
  fileListFiles,
  finishCampaign,
  hasUnsent,
  insertCampaign,
  insertOptOut,
  isOptedOut,
  lockRunnableCampaign,
  nextRecipient,
  refExists,
  replyState,
  report,
  reportRows,
  saveCampaignSetting,
  sendsOnConnectionSince,
  settleHandedOver,
  skipUnsentOf,
  unfinishedCount,
  updateCampaign,
  updateShipping,
} from './campaigns.repository';

export const CAMPAIGN_TICK_JOB = 'campaign-tick';
export const CAMPAIGN_SWEEP_JOB = 'campaigns-sweep';
/** One run of the tick job sends while its pauses are this short, then hands over to a new job. */
const INLINE_PAUSE_MS = 2_000;
const RUN_BUDGET_MS = 20_000;

export type TickOutcome = 'sent' | 'skipped' | 'paused' | 'capped' | 'waiting' | 'done' | 'idle';

const notFound = () => new AppError('ERR_NOT_FOUND', 404);
const notEditable = () =>
  new AppError('ERR_VALIDATION', 400, {
    fields: [{ path: 'body.status', message: 'The campaign cannot be changed in its state' }],
  });
const wrongState = (message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path: 'params.id', message }] });

const MESSAGE_KEYS = [...CAMPAIGN_MESSAGE_KEYS, ...CAMPAIGN_CONFIRMATION_KEYS] as const;
const HOUR_MS = 3_600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** INATIVA, or PROGRAMADA with more than an hour to go (spec administration 4). */
export function isEditable(campaign: Pick<CampaignRow, 'status' | 'scheduledAt'>, now: Date) {
  if (campaign.status === 'INATIVA') return true;
  return (
    campaign.status === 'PROGRAMADA' &&
    campaign.scheduledAt !== null &&
    campaign.scheduledAt.getTime() > now.getTime() + HOUR_MS
  );
}

/** The pause after a send: the interval randomised by a quarter each way, plus the longer one. */
export function pauseAfter(
  settings: Pick<
    CampaignSettingsValues,
    'messageInterval' | 'longerIntervalAfter' | 'greaterInterval'
  >,
  sendsInRow: number,
  secondMs: number,
  random = Math.random,
): { delayMs: number; sendsInRow: number } {
  const base = settings.messageInterval * secondMs;
  let delayMs = Math.round(base * (0.75 + random() * 0.5));
  let row = sendsInRow + 1;
  if (settings.longerIntervalAfter > 0 && row >= settings.longerIntervalAfter) {
    delayMs += settings.greaterInterval * secondMs;
    row = 0;
  }
  return { delayMs, sendsInRow: row };
}

/** The campaign settings from their stored rows: defaults for what is missing or unreadable. */
function settingsFrom(rows: readonly { key: string; value: string }[]): CampaignSettingsValues {
  // Most companies keep the defaults: every contact's message would otherwise parse them again.
  if (rows.length === 0) return DEFAULT_CAMPAIGN_SETTINGS;
  const values: Record<string, unknown> = { ...DEFAULT_CAMPAIGN_SETTINGS };
  for (const { key, value } of rows) {
    if (!(key in DEFAULT_CAMPAIGN_SETTINGS)) continue;
    try {
      values[key] = JSON.parse(value);
    } catch {
      // A value that is not JSON keeps the default.
    }
  }
  const parsed = campaignSettingsValuesSchema.safeParse(values);
  return parsed.success ? parsed.data : DEFAULT_CAMPAIGN_SETTINGS;
}

/** Fills the company's {{key}} variables, then the message variables of the spec. */
function fillCustom(text: string, variables: CampaignSettingsValues['variables']) {
  if (variables.length === 0 || !text.includes('{{')) return text;
  const values = new Map(variables.map((v) => [v.key, v.value]));
  return text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) =>
    values.has(name) ? values.get(name)! : whole,
  );
}

const mediaKind = (mime: string | null) =>
  mime?.startsWith('image/')
    ? ('image' as const)
    : mime?.startsWith('video/')
      ? ('video' as const)
      : mime?.startsWith('audio/')
        ? ('audio' as const)
        : ('document' as const);

/**
 * Campaigns: kept per company, sent by the job engine one recipient at a time. Each send is the
 * campaign's row locked, one recipient claimed and its outbound message stored in one commit, so
 * two instances, a retried job or a restart never write to anyone twice; the outbound sender then
 * delivers it. The pause between sends comes from the campaign settings.
 */
export class CampaignsService {
  constructor(
    private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'jobs' | 'storage' | 'config'>,
    private readonly outbound: Pick<OutboundSender, 'sendStored'>,
    private readonly tickets: Pick<TicketLifecycle, 'liveTicket' | 'announceOpened'>,
  ) {
    platform.jobs.define<{ companyId: number; campaignId: number }>(CAMPAIGN_TICK_JOB, {
      policy: 'short',
      retryLimit: 3,
      concurrency: 4,
      handler: ({ companyId, campaignId }) => this.run(companyId, campaignId),
    });
    platform.jobs.define<{ at?: string }>(CAMPAIGN_SWEEP_JOB, {
      policy: 'short',
      retryLimit: 1,
      handler: ({ at }) => this.sweep(at ? new Date(at) : new Date()),
    });
    platform.jobs.every(CAMPAIGN_SWEEP_JOB, '* * * * *');
    platform.events.on('message.sent', ({ companyId, messageId }) => {
      void this.#delivered(companyId, messageId).catch(() => {
        // The sweep settles it from the message's state.
      });
    });
    platform.events.on('message.saved', ({ companyId, action, message, ticket, followUp }) => {
      if (action !== 'create' || message.fromMe || ticket.isGroup) return;
      const known = followUp?.campaignReply;
      void this.reply(companyId, ticket.contact.number, message.body, known).catch(() => {
        // A reply not read here is one confirmation less: the campaign still finishes.
      });
    });
  }

  #db(companyId: number): TenantDb {
    return tenantDb(systemContext(this.platform.db, companyId));
  }

  async #open(ctx: RequestContext): Promise<TenantDb> {
    const db = tenantDb(ctx);
    await assertCampaignsEnabled(db);
    return db;
  }

  #present({ campaign, contactList, whatsapp }: CampaignWithNames): Campaign {
    const messages = Object.fromEntries(MESSAGE_KEYS.map((key) => [key, campaign[key]])) as Record<
      (typeof MESSAGE_KEYS)[number],
      string
    >;
    return {
      id: campaign.id,
      name: campaign.name,
      ...messages,
      status: campaign.status as CampaignStatus,
      confirmation: campaign.confirmation,
      scheduledAt: iso(campaign.scheduledAt),
      completedAt: iso(campaign.completedAt),
      whatsappId: campaign.whatsappId,
      contactListId: campaign.contactListId,
      tagListId: campaign.tagListId,
      fileListId: campaign.fileListId,
      companyId: campaign.companyId,
      mediaPath: campaign.mediaPath ? this.platform.storage.signedPath(campaign.mediaPath) : null,
      mediaName: campaign.mediaName,
      contactList,
      whatsapp,
      createdAt: isoRequired(campaign.createdAt),
      updatedAt: isoRequired(campaign.updatedAt),
    };
  }

  async #announce(db: TenantDb, action: 'create' | 'update', id: number): Promise<Campaign> {
    const row = await campaignById(db, id);
    if (!row) throw notFound();
    const record = this.#present(row);
    this.platform.events.emit('campaign.saved', { companyId: db.companyId, action, record });
    return record;
  }

  async #existing(db: TenantDb, id: number): Promise<CampaignWithNames> {
    const row = await campaignById(db, id);
    if (!row) throw notFound();
    return row;
  }

  async list(ctx: RequestContext, query: CampaignListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await campaignsPage(
      await this.#open(ctx),
      query.searchParam?.trim() || undefined,
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { records: pageRows.map((row) => this.#present(row)), count, hasMore };
  }

  /** The campaign with its report; `withRows`, every recipient and list entry too. */
  async get(ctx: RequestContext, id: number, withRows = true): Promise<CampaignDetail> {
    const db = await this.#open(ctx);
    const row = await this.#existing(db, id);
    const [{ counts, timeline }, rows] = await Promise.all([
      report(db, id),
      withRows ? reportRows(db, id, row.campaign.contactListId) : undefined,
    ]);
    const campaign = this.#present(row);
    return {
      ...campaign,
      ...(rows && {
        shipping: rows.shipping,
        contactList: campaign.contactList && { ...campaign.contactList, contacts: rows.contacts },
      }),
      report: {
        validContacts: counts.total - counts.optedOut,
        delivered: counts.delivered,
        confirmationRequested: counts.confirmationRequested,
        confirmed: counts.confirmed,
        optedOut: counts.optedOut,
        failed: counts.failed,
        timeline: timeline.map((point) => ({
          at: new Date(point.at).toISOString(),
          delivered: point.delivered,
        })),
      },
    };
  }

  async #checkRefs(db: TenantDb, data: CampaignUpdate) {
    if (data.whatsappId && !(await refExists.connection(db, data.whatsappId))) {
      throw new AppError('ERR_NO_WAPP_FOUND', 404);
    }
    if (data.contactListId && !(await refExists.contactList(db, data.contactListId))) {
      throw notFound();
    }
    if (data.tagListId && !(await refExists.tag(db, data.tagListId))) throw notFound();
    if (data.fileListId && !(await refExists.fileList(db, data.fileListId))) throw notFound();
  }

  async #fields(db: TenantDb, data: CampaignUpdate): Promise<CampaignChanges> {
    const changes: CampaignChanges = {};
    if (data.name !== undefined) changes.name = data.name;
    if (data.confirmation !== undefined) changes.confirmation = data.confirmation;
    for (const key of ['whatsappId', 'contactListId', 'tagListId', 'fileListId'] as const) {
      if (data[key] !== undefined) changes[key] = data[key];
    }
    for (const key of MESSAGE_KEYS) {
      if (data[key] !== undefined) changes[key] = data[key] ?? '';
    }
    if (data.scheduledAt !== undefined) {
      changes.scheduledAt = data.scheduledAt
        ? instantOf(data.scheduledAt, await companySetting(db, 'timezone'))
        : null;
    }
    return changes;
  }

  async create(ctx: RequestContext, data: CampaignCreate): Promise<Campaign> {
    const db = await this.#open(ctx);
    await this.#checkRefs(db, data);
    const fields = await this.#fields(db, data);
    const id = await insertCampaign(db, {
      ...fields,
      name: data.name,
      status: fields.scheduledAt ? 'PROGRAMADA' : 'INATIVA',
    });
    const campaign = await this.#announce(db, 'create', id);
    if (fields.scheduledAt) await this.#queueStart(ctx.companyId, id, fields.scheduledAt);
    return campaign;
  }

  /**
   * Editable while INATIVA or PROGRAMADA more than an hour ahead; a cancelled one takes new
   * messages only (its other fields, as the original client sends them, change nothing).
   */
  async update(ctx: RequestContext, id: number, data: CampaignUpdate): Promise<Campaign> {
    const db = await this.#open(ctx);
    const { campaign } = await this.#existing(db, id);
    if (campaign.status === 'CANCELADA') {
      const messages: CampaignChanges = {};
      for (const key of MESSAGE_KEYS) {
        if (data[key] !== undefined) messages[key] = data[key] ?? '';
      }
      if (!(await updateCampaign(db, id, messages, ['CANCELADA']))) throw notEditable();
      return this.#announce(db, 'update', id);
    }
    if (!isEditable(campaign, new Date())) throw notEditable();
    await this.#checkRefs(db, data);
    const fields = await this.#fields(db, data);
    const scheduledAt =
      fields.scheduledAt !== undefined ? fields.scheduledAt : campaign.scheduledAt;
    const changed = await updateCampaign(
      db,
      id,
      { ...fields, status: scheduledAt ? 'PROGRAMADA' : 'INATIVA' },
      ['INATIVA', 'PROGRAMADA'],
    );
    if (!changed) throw notEditable();
    const record = await this.#announce(db, 'update', id);
    if (scheduledAt) await this.#queueStart(ctx.companyId, id, scheduledAt);
    return record;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = await this.#open(ctx);
    const { campaign } = await this.#existing(db, id);
    await deleteCampaign(db, id);
    await forgetStored(this.platform.storage, campaign.mediaPath);
    this.platform.events.emit('campaign.deleted', { companyId: ctx.companyId, id });
  }

  async attachMedia(ctx: RequestContext, id: number, source: MultipartSource | undefined) {
    const db = await this.#open(ctx);
    const { campaign } = await this.#existing(db, id);
    // The state is checked with the file read (a bad form is refused as such first).
    return replaceAttachment(source, this.platform.storage, ctx.companyId, {
      types: CAMPAIGN_MEDIA_TYPES,
      fields: campaignMediaFormSchema,
      previous: campaign.mediaPath,
      save: async (file) => {
        if (!isEditable(campaign, new Date())) throw notEditable();
        const media = {
          mediaPath: file.key,
          mediaName: file.fileName,
          mediaMime: file.mimeType,
        };
        if (!(await updateCampaign(db, id, media, ['INATIVA', 'PROGRAMADA']))) {
          throw notEditable();
        }
        return this.#announce(db, 'update', id);
      },
    });
  }

  async detachMedia(ctx: RequestContext, id: number): Promise<Campaign> {
    const db = await this.#open(ctx);
    const { campaign } = await this.#existing(db, id);
    if (!isEditable(campaign, new Date())) throw notEditable();
    const media = { mediaPath: null, mediaName: null, mediaMime: null };
    if (!(await updateCampaign(db, id, media, ['INATIVA', 'PROGRAMADA']))) throw notEditable();
    await forgetStored(this.platform.storage, campaign.mediaPath);
    return this.#announce(db, 'update', id);
  }

  /** Stops a running (or programmed) campaign; what was sent stays sent. */
  async cancel(ctx: RequestContext, id: number): Promise<Campaign> {
    const db = await this.#open(ctx);
    await this.#existing(db, id);
    const stopped = await updateCampaign(db, id, { status: 'CANCELADA', nextSendAt: null }, [
      'EM_ANDAMENTO',
      'PROGRAMADA',
    ]);
    if (!stopped) throw wrongState('Only a running or programmed campaign is cancelled');
    return this.#announce(db, 'update', id);
  }

  /**
   * Starts a campaign now (POST /campaigns/:id/restart, as the original's restart starts any): a
   * cancelled one runs again, writing only to whom it did not write yet; one left without a
   * schedule (INATIVA) starts at once, once it names its connection and its recipients.
   */
  async restart(ctx: RequestContext, id: number): Promise<Campaign> {
    const db = await this.#open(ctx);
    const { campaign } = await this.#existing(db, id);
    if (campaign.status !== 'CANCELADA' && campaign.status !== 'INATIVA') {
      throw wrongState('Only a cancelled or an inactive campaign is started');
    }
    if (!campaign.whatsappId || !(campaign.contactListId || campaign.tagListId)) {
      throw wrongState('A campaign starts once it has a connection and a contact or tag list');
    }
    await this.#copyRecipients(db, campaign);
    const started = await updateCampaign(
      db,
      id,
      { status: 'EM_ANDAMENTO', nextSendAt: null, completedAt: null },
      [campaign.status],
    );
    if (!started) throw wrongState('Only a cancelled or an inactive campaign is started');
    const record = await this.#announce(db, 'update', id);
    await this.#queueTick(ctx.companyId, id, 0);
    return record;
  }

  // Settings.

  async #settingsOf(db: TenantDb): Promise<CampaignSettingsValues> {
    return settingsFrom(await campaignSettingRows(db));
  }

  async settings(ctx: RequestContext): Promise<CampaignSetting[]> {
    const values = await this.#settingsOf(await this.#open(ctx));
    return Object.entries(values).map(([key, value]) => ({ key, value: JSON.stringify(value) }));
  }

  async saveSettings(ctx: RequestContext, data: CampaignSettingsSave): Promise<CampaignSetting[]> {
    const db = await this.#open(ctx);
    for (const [key, value] of Object.entries(data.settings)) {
      if (value !== undefined) await saveCampaignSetting(db, key, JSON.stringify(value));
    }
    return this.settings(ctx);
  }

  // The engine.

  /**
   * Copies the recipients of the list and of the tag into shipping rows (each number once), in
   * one statement: 100,000 rows in a second or two, and a copy cut short is finished by the next.
   */
  async #copyRecipients(db: TenantDb, campaign: CampaignRow) {
    if (campaign.contactListId || campaign.tagListId)
      await copyRecipientsOf(db, campaign.id, campaign);
  }

  /** A due programmed campaign starts: its recipients copied, then its state moved. */
  async #start(db: TenantDb, campaign: CampaignRow, now: Date) {
    await this.#copyRecipients(db, campaign);
    if (await updateCampaign(db, campaign.id, { status: 'EM_ANDAMENTO' }, ['PROGRAMADA'])) {
      await this.#announce(db, 'update', campaign.id);
    }
    return campaignRow(db, campaign.id).then((row) =>
      row?.scheduledAt && row.scheduledAt > now ? undefined : row,
    );
  }

  /** The tick job: sends while the pauses are short, then leaves the rest to the next job. */
  async run(companyId: number, campaignId: number): Promise<void> {
    const started = Date.now();
    for (;;) {
      const outcome = await this.tick(companyId, campaignId);
      if (outcome.outcome !== 'sent' && outcome.outcome !== 'skipped') {
        if (outcome.nextInMs !== undefined) {
          await this.#queueTick(companyId, campaignId, outcome.nextInMs);
        }
        return;
      }
      const wait = outcome.nextInMs ?? 0;
      if (wait > INLINE_PAUSE_MS || Date.now() - started + wait > RUN_BUDGET_MS) {
        await this.#queueTick(companyId, campaignId, wait);
        return;
      }
      if (wait > 0) await sleep(wait);
    }
  }

  /**
   * One step of a campaign: starts it when due, sends to one recipient (its confirmation
   * request, or its message), or finishes it. Says when the next step may come.
   */
  async tick(
    companyId: number,
    campaignId: number,
    now = new Date(),
  ): Promise<{ outcome: TickOutcome; nextInMs?: number }> {
    const db = this.#db(companyId);
    let campaign = await campaignRow(db, campaignId);
    if (!campaign) return { outcome: 'idle' };
    if (campaign.status === 'PROGRAMADA') {
      if (!campaign.scheduledAt || campaign.scheduledAt > now) return { outcome: 'idle' };
      campaign = await this.#start(db, campaign, now);
      if (!campaign) return { outcome: 'idle' };
    }
    if (campaign.status !== 'EM_ANDAMENTO') return { outcome: 'idle' };
    const retry = this.platform.config.CAMPAIGN_PAUSE_RETRY_MS;
    const connection = await connectionOf(db, campaign.whatsappId);
    // Without its connection the campaign waits: nobody is failed for a network that is down.
    if (connection?.status !== 'CONNECTED') return { outcome: 'paused', nextInMs: retry };
    const settings = await this.#settingsOf(db);
    if (settings.dailyLimit > 0) {
      const zone = await companySetting(db, 'timezone');
      const today = new TZDate(now.getTime(), zone);
      const dayStart = new TZDate(today.getFullYear(), today.getMonth(), today.getDate(), zone);
      const sent = await sendsOnConnectionSince(db, connection.id, new Date(dayStart.getTime()));
      if (sent >= settings.dailyLimit) {
        const tomorrow = new TZDate(
          today.getFullYear(),
          today.getMonth(),
          today.getDate() + 1,
          zone,
        );
        return { outcome: 'capped', nextInMs: tomorrow.getTime() - now.getTime() + 1_000 };
      }
    }
    const zone = await companySetting(db, 'timezone');
    const claimed = await db.transaction(async (tx) => {
      const locked = await lockRunnableCampaign(tx, campaignId, now);
      if (!locked) return { kind: 'busy' as const };
      const next = await nextRecipient(tx, campaignId, locked.confirmation);
      if (!next) return { kind: 'none' as const };
      const { row, step } = next;
      if (await isOptedOut(tx, row.number)) {
        await updateShipping(tx, row.id, { skipped: 'opted-out' });
        return { kind: 'skipped' as const };
      }
      const keys = step === 'confirmation' ? CAMPAIGN_CONFIRMATION_KEYS : CAMPAIGN_MESSAGE_KEYS;
      const choices = keys.map((key) => locked[key]).filter((text) => text.trim() !== '');
      if (choices.length === 0) {
        await updateShipping(tx, row.id, { skipped: 'failed' });
        return { kind: 'skipped' as const };
      }
      const template = choices[Math.floor(Math.random() * choices.length)]!;
      const contact = await contactForNumber(tx, row.number, row.name);
      const { ticket, opened } = await this.tickets.liveTicket(tx, {
        contact,
        whatsappId: connection.id,
      });
      const body = resolveVariables(
        fillCustom(template, settings.variables),
        {
          contactName: row.name || contact.name,
          ticketId: ticket.id,
          ticketCreatedAt: new Date(ticket.createdAt),
          timeZone: zone,
        },
        now,
      );
      // The media goes with the campaign's message, not with the question before it.
      const media =
        step === 'message' && locked.mediaPath
          ? {
              key: locked.mediaPath,
              mimeType: locked.mediaMime ?? 'application/octet-stream',
              fileName: locked.mediaName ?? 'arquivo',
              kind: mediaKind(locked.mediaMime),
            }
          : undefined;
      const messageId = await storePending(tx, ticket.id, connection, { body, media });
      // The file list's files follow the message, stored in the same commit (so a restart sends
      // the ones left, never one twice): each option's file in the list's order, its name as
      // the caption; an option without a file has nothing to send.
      const fileMessageIds: number[] = [];
      if (step === 'message' && locked.fileListId) {
        for (const file of await fileListFiles(tx, locked.fileListId)) {
          fileMessageIds.push(
            await storePending(tx, ticket.id, connection, {
              body: file.name,
              media: {
                key: file.mediaPath,
                mimeType: file.mediaType ?? 'application/octet-stream',
                fileName: file.mediaName ?? file.name,
                kind: mediaKind(file.mediaType),
              },
            }),
          );
        }
      }
      await updateShipping(tx, row.id, {
        contactId: contact.id,
        ticketId: ticket.id,
        ...(step === 'confirmation'
          ? { confirmationMessageId: messageId, confirmationRequestedAt: now }
          : { messageId, sentAt: now }),
      });
      const pause = pauseAfter(
        settings,
        locked.sendsInRow,
        this.platform.config.CAMPAIGN_SECOND_MS,
      );
      await updateCampaign(tx, campaignId, {
        nextSendAt: new Date(now.getTime() + pause.delayMs),
        sendsInRow: pause.sendsInRow,
      });
      return {
        kind: 'claimed' as const,
        messageId,
        fileMessageIds,
        step,
        ticketId: ticket.id,
        opened,
        delayMs: pause.delayMs,
      };
    });
    if (claimed.kind === 'busy') {
      // Another instance is sending for it, or its pause is not over.
      const current = await campaignRow(db, campaignId);
      if (current?.status !== 'EM_ANDAMENTO') return { outcome: 'idle' };
      const wait = current.nextSendAt ? current.nextSendAt.getTime() - now.getTime() : 0;
      return { outcome: 'waiting', ...(wait > 0 ? { nextInMs: wait } : {}) };
    }
    if (claimed.kind === 'skipped') return { outcome: 'skipped', nextInMs: 0 };
    if (claimed.kind === 'none') {
      await this.#finishIfDone(db, campaignId, now);
      return { outcome: 'done' };
    }
    await this.tickets.announceOpened(db, claimed);
    // What the send came to is read from the message: a failed one stays on it for a person.
    await this.outbound.sendStored(companyId, claimed.messageId).catch(() => undefined);
    if (claimed.step === 'message') {
      const state = await deliveryState(db, claimed.messageId);
      if (state === 'sent') await deliverShippingOfMessage(db, claimed.messageId, new Date());
    }
    for (const fileMessageId of claimed.fileMessageIds) {
      await this.outbound.sendStored(companyId, fileMessageId).catch(() => undefined);
    }
    await this.#announce(db, 'update', campaignId);
    return { outcome: 'sent', nextInMs: claimed.delayMs };
  }

  /** FINALIZADA once nobody is left to write to, to hear from or to deliver to. */
  async #finishIfDone(db: TenantDb, campaignId: number, now: Date) {
    const campaign = await campaignRow(db, campaignId);
    if (campaign?.status !== 'EM_ANDAMENTO') return;
    // Every delivery asks; while anyone is still to be written to, one index entry answers.
    if (await hasUnsent(db, campaignId)) return;
    await settleHandedOver(db, campaignId, now);
    const window = this.platform.config.CAMPAIGN_CONFIRMATION_WINDOW_HOURS * HOUR_MS;
    const left = await unfinishedCount(
      db,
      campaignId,
      campaign.confirmation,
      new Date(now.getTime() - window),
    );
    if (left === 0 && (await finishCampaign(db, campaignId, now))) {
      await this.#announce(db, 'update', campaignId);
    }
  }

  async #delivered(companyId: number, messageId: number) {
    const db = this.#db(companyId);
    const campaignId = await deliverShippingOfMessage(db, messageId, new Date());
    if (campaignId !== undefined) await this.#finishIfDone(db, campaignId, new Date());
  }

  /**
   * A contact wrote: an opt-out word leaves it out of every campaign of the company from now on;
   * anything else confirms the campaigns waiting for its answer, whose message then goes out.
   */
  async reply(
    companyId: number,
    number: string,
    body: string,
    known?: CampaignReplyState | null,
  ): Promise<void> {
    const db = this.#db(companyId);
    const word = body.trim().toUpperCase();
    const mayOptOut = word.length > 0 && word.length <= 30;
    // The inbound store reads it with the message; other paths ask here.
    const state = known?.settings ? known : await replyState(db, number, mayOptOut);
    if (mayOptOut) {
      const settings = settingsFrom(state.settings ?? []);
      if (settings.optOutWords.some((w) => w.trim().toUpperCase() === word)) {
        await insertOptOut(db, number);
        const skipped = await skipUnsentOf(db, number);
        for (const id of new Set(skipped.map((row) => row.campaignId))) {
          await this.#announce(db, 'update', id);
        }
        return;
      }
    }
    const { waiting } = state;
    if (waiting.length === 0) return;
    await confirmShipping(
      db,
      waiting.map((row) => row.id),
      new Date(),
    );
    for (const id of new Set(waiting.map((row) => row.campaignId))) {
      await this.#queueTick(companyId, id, 0);
    }
  }

  /**
   * Every minute: programmed campaigns that are due start, running ones whose job was lost go
   * on, messages handed to another instance are settled, and finished ones are closed.
   */
  async sweep(now = new Date()): Promise<void> {
    let failure: unknown;
    for (const companyId of await companiesWithActiveCampaigns(globalDb(this.platform), now)) {
      const db = this.#db(companyId);
      for (const { id, status } of await activeCampaigns(db, now)) {
        const done = (async () => {
          if (status === 'EM_ANDAMENTO') await this.#finishIfDone(db, id, now);
          await this.#queueTick(companyId, id, 0);
        })();
        await done.catch((error: unknown) => {
          failure ??= error;
        });
      }
    }
    if (failure) throw failure;
  }

  async #queueStart(companyId: number, campaignId: number, at: Date) {
    await this.platform.jobs
      .send(
        CAMPAIGN_TICK_JOB,
        { companyId, campaignId },
        {
          delayMs: Math.max(0, at.getTime() - Date.now()),
          singletonKey: `start:${campaignId}@${at.toISOString()}`,
        },
      )
      .catch(() => undefined);
  }

  async #queueTick(companyId: number, campaignId: number, delayMs: number) {
    await this.platform.jobs
      .send(
        CAMPAIGN_TICK_JOB,
        { companyId, campaignId },
        { delayMs: Math.max(0, delayMs), singletonKey: `tick:${campaignId}` },
      )
      .catch(() => undefined);
  }
}
