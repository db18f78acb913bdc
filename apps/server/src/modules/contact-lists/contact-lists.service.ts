import {
  type ContactList,
  type ContactListCreate,
  type ContactListImportResult,
  type ContactListItem,
  type ContactListItemCreate,
  type ContactListItemsQuery,
  type ContactListItemUpdate,
  type ContactListsQuery,
  DEFAULT_PAGE_SIZE,
  IMPORT_INVALID_ROWS_SHOWN,
  LEGACY_XLS_MESSAGE,
  NO_NUMBER_COLUMN_MESSAGE,
  normalizePhoneNumber,
  optionalEmailField,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { isoRequired, page, sliceMore } from '../../platform/routes';
import {
  columnsOf,
  importLimits,
  type OpenedSheet,
  personOf,
  withUploadedSheet,
} from '../../platform/sheets';
import type { MultipartSource } from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import { companySetting } from '../settings/settings.values';
import {
  type ContactListItemRow,
  type ContactListRow,
  checkingConnection,
  contactListById,
  contactListItemById,
  contactListItemsPage,
  contactListOptions,
  contactListsPage,
  deleteContactList,
  deleteContactListItem,
  insertContactList,
  insertContactListItem,
  insertNewListItems,
  listsWithUncheckedItems,
  type NewListItem,
  renameContactList,
  setWhatsappValid,
  uncheckedItems,
  updateContactListItem,
} from './contact-lists.repository';

/** The job that asks the network which of a list's numbers are on WhatsApp. */
export const CHECK_NUMBERS_JOB = 'contactLists.checkNumbers';
/** Numbers asked per run; the next run waits CHECK_PAUSE_MS, so the network is never flooded. */
const CHECK_BATCH = 20;
const CHECK_PAUSE_MS = 3_000;

/** Rows written per statement during an import. */
const IMPORT_BATCH = 1_000;
/** Progress is told at most this often while an import reads its file. */
const PROGRESS_EVERY_MS = 250;

const notFound = () => new AppError('ERR_NOT_FOUND', 404);
const duplicated = () =>
  new AppError('ERR_DUPLICATED_CONTACT', 409, {
    fields: [{ path: 'body.number', message: 'Already exists' }],
  });
const fileError = (code: 'ERR_VALIDATION' | 'ERR_UNSUPPORTED_MEDIA_TYPE', message: string) =>
  new AppError(code, code === 'ERR_VALIDATION' ? 400 : 415, {
    fields: [{ path: 'body.file', message }],
  });

export const presentContactList = (row: ContactListRow): ContactList => ({
  id: row.id,
  name: row.name,
  contactsCount: row.contactsCount,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

export const presentContactListItem = (row: ContactListItemRow): ContactListItem => ({
  id: row.id,
  name: row.name,
  number: row.number,
  email: row.email,
  isWhatsappValid: row.isWhatsappValid,
  companyId: row.companyId,
  contactListId: row.contactListId,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

/**
 * Campaigns are the plan's (useCampaigns, checked by the route guard) and the company's: its
 * campaignsEnabled setting (the original 'cshow') switched off closes them too.
 */
export async function assertCampaignsEnabled(db: TenantDb): Promise<void> {
  if ((await companySetting(db, 'campaignsEnabled')) === 'false') {
    throw new AppError('ERR_NO_PERMISSION', 403);
  }
}

/**
 * Contact lists and their items, the recipients of campaigns. Imports read the spreadsheet as
 * it streams from storage and write it in batches, each number once per list.
 */
export class ContactListsService {
  constructor(
    private readonly platform: Pick<
      ServiceDeps,
      'events' | 'storage' | 'jobs' | 'db' | 'channels' | 'config'
    >,
  ) {
    platform.jobs.define<{ companyId: number; contactListId: number }>(CHECK_NUMBERS_JOB, {
      // One waiting check per list: items added meanwhile are found by the one that waits.
      policy: 'short',
      retryLimit: 2,
      concurrency: 1,
      handler: ({ companyId, contactListId }) => this.checkNumbers(companyId, contactListId),
    });
    // Items added while no connection was up are checked once one is.
    platform.events.on('connection.session', ({ companyId, session }) => {
      if (session.status !== 'CONNECTED') return;
      void this.recheckUnknown(companyId).catch(() => {
        // The next connection that comes up, or the next change of an item, asks again.
      });
    });
  }

  /**
   * Queues the check of every list of the company with numbers not checked yet, one list after
   * another a pause apart; each list's check then goes in paced batches as ever.
   */
  async recheckUnknown(companyId: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const lists = await listsWithUncheckedItems(db);
    for (const [index, contactListId] of lists.entries()) {
      await this.#checkLater(companyId, contactListId, index * CHECK_PAUSE_MS);
    }
  }

  /** Queues the check of the list's numbers not checked yet. */
  async #checkLater(companyId: number, contactListId: number, delayMs = 0) {
    await this.platform.jobs.send(
      CHECK_NUMBERS_JOB,
      { companyId, contactListId },
      { singletonKey: `${companyId}:${contactListId}`, delayMs },
    );
  }

  /**
   * Asks the network, through the company's connected connection and where that connection
   * runs, whether a batch of the list's unchecked numbers are on WhatsApp; sets each item and
   * tells it, then queues the next batch after a pause. Networks that cannot tell (the Cloud
   * API) and companies without a connected connection leave the items unchecked (null).
   */
  async checkNumbers(companyId: number, contactListId: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const connection = await checkingConnection(db);
    if (!connection) return;
    const items = await uncheckedItems(db, contactListId, CHECK_BATCH);
    if (items.length === 0) return;
    const found = await this.platform.channels.whatsappNumbers(
      connection.id,
      items.map((item) => item.number),
    );
    if (!found) return;
    let told = 0;
    for (const item of items) {
      const valid = found.get(item.number);
      if (valid === undefined) continue;
      const row = await setWhatsappValid(db, item, valid);
      if (!row) continue;
      told += 1;
      this.platform.events.emit('contactListItem.saved', {
        companyId,
        action: 'update',
        record: presentContactListItem(row),
      });
    }
    // A batch the network answered in full may have more behind it.
    if (told === items.length && items.length === CHECK_BATCH) {
      await this.#checkLater(companyId, contactListId, CHECK_PAUSE_MS);
    }
  }

  async #db(ctx: RequestContext): Promise<TenantDb> {
    const db = tenantDb(ctx);
    await assertCampaignsEnabled(db);
    return db;
  }

  async list(ctx: RequestContext, query: ContactListsQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await contactListsPage(
      await this.#db(ctx),
      query.searchParam?.trim() || undefined,
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { records: pageRows.map(presentContactList), count, hasMore };
  }

  async options(ctx: RequestContext) {
    return contactListOptions(await this.#db(ctx));
  }

  async get(ctx: RequestContext, id: number): Promise<ContactList> {
    return presentContactList(await this.#list(await this.#db(ctx), id));
  }

  async create(ctx: RequestContext, data: ContactListCreate): Promise<ContactList> {
    const db = await this.#db(ctx);
    const id = await insertContactList(db, data.name);
    return this.#announceList(db, 'create', id);
  }

  async update(ctx: RequestContext, id: number, data: ContactListCreate): Promise<ContactList> {
    const db = await this.#db(ctx);
    if (!(await renameContactList(db, id, data.name))) throw notFound();
    return this.#announceList(db, 'update', id);
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = await this.#db(ctx);
    if (!(await deleteContactList(db, id))) throw notFound();
    this.platform.events.emit('contactList.deleted', { companyId: ctx.companyId, id });
  }

  async listItems(ctx: RequestContext, query: ContactListItemsQuery) {
    const db = await this.#db(ctx);
    await this.#list(db, query.contactListId);
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await contactListItemsPage(
      db,
      query.contactListId,
      query.searchParam?.trim() || undefined,
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { contacts: pageRows.map(presentContactListItem), count, hasMore };
  }

  async getItem(ctx: RequestContext, id: number): Promise<ContactListItem> {
    const row = await contactListItemById(await this.#db(ctx), id);
    if (!row) throw notFound();
    return presentContactListItem(row);
  }

  async createItem(ctx: RequestContext, data: ContactListItemCreate): Promise<ContactListItem> {
    const db = await this.#db(ctx);
    await this.#list(db, data.contactListId);
    const row = await insertContactListItem(db, {
      contactListId: data.contactListId,
      name: data.name,
      number: data.number,
      email: data.email ?? '',
    });
    if (!row) throw duplicated();
    const item = presentContactListItem(row);
    this.platform.events.emit('contactListItem.saved', {
      companyId: ctx.companyId,
      action: 'create',
      record: item,
    });
    await this.#announceList(db, 'update', data.contactListId);
    await this.#checkLater(ctx.companyId, data.contactListId);
    return item;
  }

  async updateItem(
    ctx: RequestContext,
    id: number,
    data: ContactListItemUpdate,
  ): Promise<ContactListItem> {
    const db = await this.#db(ctx);
    const current = await contactListItemById(db, id);
    if (!current) throw notFound();
    const number = data.number !== current.number ? data.number : undefined;
    let row: ContactListItemRow | undefined;
    try {
      row = await updateContactListItem(db, id, {
        name: data.name,
        number,
        email: data.email,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicated();
      throw error;
    }
    if (!row) throw notFound();
    const item = presentContactListItem(row);
    this.platform.events.emit('contactListItem.saved', {
      companyId: ctx.companyId,
      action: 'update',
      record: item,
    });
    if (number !== undefined) await this.#checkLater(ctx.companyId, row.contactListId);
    return item;
  }

  async removeItem(ctx: RequestContext, id: number): Promise<void> {
    const db = await this.#db(ctx);
    const removed = await deleteContactListItem(db, id);
    if (!removed) throw notFound();
    this.platform.events.emit('contactListItem.deleted', {
      companyId: ctx.companyId,
      id,
      contactListId: removed.contactListId,
    });
    await this.#announceList(db, 'update', removed.contactListId);
  }

  /**
   * Imports a spreadsheet (.xlsx or .csv; its first sheet, a header row naming at least the
   * number) into the list. The file streams to storage, then is read row by row and written in
   * batches: numbers normalised, each kept once per list, refused ones counted with their row.
   */
  async upload(
    ctx: RequestContext,
    id: number,
    source: MultipartSource | undefined,
  ): Promise<ContactListImportResult> {
    const db = await this.#db(ctx);
    await this.#list(db, id);
    if (!source) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415);
    const errors = {
      missing: () => fileError('ERR_VALIDATION', 'Required'),
      legacy: () => fileError('ERR_UNSUPPORTED_MEDIA_TYPE', LEGACY_XLS_MESSAGE),
    };
    const { storage, config } = this.platform;
    return withUploadedSheet(
      source,
      storage,
      ctx.companyId,
      importLimits(config),
      errors,
      async (sheet) => {
        const result = await this.#import(db, id, sheet);
        if (result.imported > 0) {
          this.platform.events.emit('contactListItem.reload', {
            companyId: ctx.companyId,
            contactListId: id,
          });
          await this.#announceList(db, 'update', id);
          await this.#checkLater(ctx.companyId, id);
        }
        return result;
      },
    );
  }

  async #import(
    db: TenantDb,
    contactListId: number,
    sheet: OpenedSheet,
  ): Promise<ContactListImportResult> {
    const result: ContactListImportResult = {
      rows: 0,
      imported: 0,
      duplicates: 0,
      invalid: 0,
      invalidRows: [],
    };
    let columns: ReturnType<typeof columnsOf>;
    let header = true;
    let batch: NewListItem[] = [];
    let toldAt = 0;
    const tell = (force = false) => {
      const now = Date.now();
      if (!force && now - toldAt < PROGRESS_EVERY_MS) return;
      toldAt = now;
      const percent = sheet.rows > 0 ? Math.floor((result.rows / sheet.rows) * 100) : 100;
      this.platform.events.emit('contactListItem.importProgress', {
        companyId: db.companyId,
        progress: { contactListId, rows: result.rows, percent },
      });
    };
    const flush = async () => {
      const inserted = await insertNewListItems(db, batch);
      result.imported += inserted;
      result.duplicates += batch.length - inserted;
      batch = [];
      tell();
    };
    for await (const { row, cells } of sheet.read()) {
      if (header) {
        header = false;
        columns = columnsOf(cells);
        if (!columns) throw fileError('ERR_VALIDATION', NO_NUMBER_COLUMN_MESSAGE);
        continue;
      }
      if (!columns) break;
      result.rows += 1;
      const person = personOf(columns, cells);
      const number = normalizePhoneNumber(person.number);
      if (!number) {
        result.invalid += 1;
        if (result.invalidRows.length < IMPORT_INVALID_ROWS_SHOWN) {
          result.invalidRows.push({ row, number: person.number.slice(0, 50) });
        }
        continue;
      }
      const name = person.name.slice(0, 50);
      const email = optionalEmailField.safeParse(person.email);
      batch.push({
        contactListId,
        number,
        name: name.length >= 2 ? name : number,
        email: email.success ? email.data : '',
      });
      if (batch.length >= IMPORT_BATCH) await flush();
    }
    if (!columns) throw fileError('ERR_VALIDATION', NO_NUMBER_COLUMN_MESSAGE);
    await flush();
    tell(true);
    return result;
  }

  async #list(db: TenantDb, id: number): Promise<ContactListRow> {
    const row = await contactListById(db, id);
    if (!row) throw notFound();
    return row;
  }

  async #announceList(db: TenantDb, action: 'create' | 'update', id: number) {
    const record = presentContactList(await this.#list(db, id));
    this.platform.events.emit('contactList.saved', { companyId: db.companyId, action, record });
    return record;
  }
}
