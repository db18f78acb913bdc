import {
  CONTACTS_LIST_LIMIT,
  type Contact,
  type ContactCreate,
  type ContactImportQuery,
  type ContactListQuery,
  type ContactUpdate,
  DEFAULT_PAGE_SIZE,
  optionalEmailField,
  type ProviderName,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import { columnsOf, importLimits, personOf, withUploadedSheet } from '../../platform/sheets';
import type { MultipartSource } from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import { mediaOfContactTickets, ticketsOf } from '../tickets/tickets.lifecycle';
import { avatarKey } from './contacts.avatars';
import { type NewContact, presentContact, contactsRepository as repo } from './contacts.repository';

/** A contact as the API shows it, read by another module (the inbound pipeline announcing it). */
export async function contactOf(db: TenantDb, id: number): Promise<Contact | undefined> {
  const row = await repo.byId(db, id);
  return row ? presentContact(row) : undefined;
}

/**
 * The company's contact of a number, added (named by its number) when there is none, for a
 * module that writes to a number (the external API); says whether it was added.
 */
export function contactOfNumber(db: TenantDb, number: string) {
  return repo.ofNumber(db, number);
}

const IMPORT_BATCH = 500;

const notFound = () => new AppError('ERR_NO_CONTACT_FOUND', 404);
const importError = (message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path: 'body.file', message }] });

async function unique<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, 'contacts_company_number_key')) {
      throw new AppError('ERR_DUPLICATED_CONTACT', 409);
    }
    throw error;
  }
}

export class ContactsService {
  constructor(
    private readonly platform: Pick<ServiceDeps, 'events' | 'storage' | 'channels' | 'config'>,
  ) {}

  async list(ctx: RequestContext, query: ContactListQuery) {
    const search = query.searchParam?.trim();
    const days = query.date
      ? { from: query.date, to: query.date }
      : { from: query.dateStart, to: query.dateEnd };
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count, countExact } = await repo.page(
      tenantDb(ctx),
      { search, ...days },
      { limit, offset, search: Boolean(search) },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { contacts: pageRows, count, countExact, hasMore };
  }

  /** Every contact for pickers, by name; capped so a huge address book cannot stall a page. */
  listAll(ctx: RequestContext, query: { name?: string; searchParam?: string }) {
    const search = (query.name ?? query.searchParam)?.trim();
    return repo.list(tenantDb(ctx), search, CONTACTS_LIST_LIMIT);
  }

  async get(ctx: RequestContext, id: number): Promise<Contact> {
    const row = await repo.byId(tenantDb(ctx), id);
    if (!row) throw notFound();
    return presentContact(row);
  }

  async create(ctx: RequestContext, data: ContactCreate): Promise<Contact> {
    const contact = await unique(
      repo.insert(tenantDb(ctx), {
        name: data.name,
        number: data.number,
        email: data.email ?? '',
        extraInfo: (data.extraInfo ?? []).map(({ name, value }) => ({ name, value })),
      }),
    );
    return this.#announce(ctx, contact, 'create');
  }

  async update(ctx: RequestContext, id: number, data: ContactUpdate): Promise<Contact> {
    const db = tenantDb(ctx);
    const current = await repo.byId(db, id);
    if (!current) throw notFound();
    const contact = await unique(
      repo.update(db, id, {
        name: data.name,
        // A group's number is its id on the network, not something to edit.
        number: current.isGroup ? undefined : data.number,
        email: data.email,
        extraInfo: data.extraInfo?.map(({ name, value }) => ({ name, value })),
      }),
    );
    if (!contact) throw notFound();
    return this.#announce(ctx, contact, 'update');
  }

  /** Deletes the contact with its tickets and their messages (and the messages' files). */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const contact = await repo.byId(db, id);
    if (!contact) throw notFound();
    const [files, contactTickets] = await Promise.all([
      mediaOfContactTickets(db, id),
      ticketsOf(db, id),
    ]);
    if (!(await repo.delete(db, id))) throw notFound();
    for (const ticket of contactTickets) {
      this.platform.events.emit('ticket.deleted', { companyId: ctx.companyId, ticket });
    }
    this.platform.events.emit('contact.deleted', { companyId: ctx.companyId, contactId: id });
    const picture = avatarKey(this.platform.storage, contact.profilePicUrl);
    if (picture) files.push(picture);
    await Promise.all(files.map((key) => this.platform.storage.remove(key).catch(() => {})));
  }

  /**
   * A sheet of contacts (.csv with `;` or `,`, or .xlsx; a header naming the number column, and
   * the name and email ones if it has them), read through the one sheet reader: measured and
   * refused past the row limit before anything is stored, then written in batches. Rows with a
   * bad number and numbers the company already has are skipped; the answer counts both.
   */
  async import(
    ctx: RequestContext,
    source: MultipartSource | undefined,
    query: ContactImportQuery = {},
    body?: unknown,
  ) {
    if (!source) {
      // A file sent some other way than a form is refused, not taken for the address book.
      const empty =
        body === undefined ||
        body === null ||
        (typeof body === 'object' && Object.keys(body).length === 0);
      if (!empty) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415);
      return this.#importAddressBook(ctx, query.whatsappId);
    }
    const errors = {
      missing: () => importError('Required'),
      legacy: () => new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415),
    };
    const { storage, config } = this.platform;
    return withUploadedSheet(
      source,
      storage,
      ctx.companyId,
      importLimits(config),
      errors,
      async (sheet) => {
        let columns: ReturnType<typeof columnsOf>;
        let header = true;
        let rows = 0;
        let imported = 0;
        let batch = new Map<string, NewContact>();
        const flush = async () => {
          imported += await this.#insertNew(ctx, [...batch.values()]);
          batch = new Map();
        };
        for await (const { cells } of sheet.read()) {
          if (header) {
            header = false;
            columns = columnsOf(cells);
            if (!columns) throw importError('Header must name a number column');
            continue;
          }
          if (!columns) break;
          rows += 1;
          const person = personOf(columns, cells);
          const number = /^[\d\s()+.-]+$/.test(person.number)
            ? person.number.replace(/\D/g, '')
            : '';
          if (number.length < 8 || number.length > 50 || batch.has(number)) continue;
          const email = optionalEmailField.safeParse(person.email);
          batch.set(number, {
            number,
            name: (person.name || number).slice(0, 50),
            email: email.success ? email.data : '',
          });
          if (batch.size >= IMPORT_BATCH) await flush();
        }
        if (!columns) throw importError('Header must name a number column');
        await flush();
        return { imported, skipped: rows - imported };
      },
    );
  }

  /**
   * The people of a connection's address book (the given connection, else the default one) as
   * contacts; numbers the company already has are skipped, their contacts left as they are.
   */
  async #importAddressBook(ctx: RequestContext, whatsappId: number | undefined) {
    const connection = await repo.addressBookConnection(tenantDb(ctx), whatsappId);
    if (!connection) {
      throw new AppError(whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND', 404);
    }
    const provider = this.platform.channels.provider(connection.provider as ProviderName);
    if (!provider?.addressBook) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'query.whatsappId', message: 'This connection has no address book' }],
      });
    }
    const people = await provider.addressBook({
      id: connection.id,
      companyId: ctx.companyId,
      name: connection.name,
    });
    const valid = new Map<string, NewContact>();
    for (const person of people) {
      const number = person.number.replace(/\D/g, '');
      if (number.length < 8 || number.length > 50 || valid.has(number)) continue;
      const name = person.name.trim().slice(0, 50);
      valid.set(number, { number, name: name || number, email: '', whatsappId: connection.id });
    }
    const imported = await this.#insertNew(ctx, [...valid.values()]);
    return { imported, skipped: people.length - imported };
  }

  /** Inserts the numbers the company does not have yet; each contact added is announced. */
  async #insertNew(ctx: RequestContext, rows: NewContact[]) {
    const db = tenantDb(ctx);
    let inserted = 0;
    for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
      const batch = rows.slice(start, start + IMPORT_BATCH);
      const added = await repo.insertNew(db, batch);
      inserted += added.length;
      for (const contact of added) this.#announce(ctx, contact, 'create');
    }
    return inserted;
  }

  #announce(ctx: RequestContext, contact: Contact, action: 'create' | 'update'): Contact {
    this.platform.events.emit('contact.saved', { companyId: ctx.companyId, action, contact });
    return contact;
  }
}
