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
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import { type MultipartSource, readFileBuffer } from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import { ticketsOfContact } from '../tickets/tickets.repository';
import { avatarKey } from './contacts.avatars';
import { contactsOf, parseContactsCsv } from './contacts.import';
import { type NewContact, presentContact, contactsRepository as repo } from './contacts.repository';

const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const IMPORT_BATCH = 500;

const notFound = () => new AppError('ERR_NO_CONTACT_FOUND', 404);

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
  constructor(private readonly platform: Pick<ServiceDeps, 'events' | 'storage' | 'channels'>) {}

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
      repo.mediaOf(db, id),
      ticketsOfContact(db, id),
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
   * A CSV of contacts (name;number;email or name,number,email with a header). Rows with a bad
   * number and numbers the company already has are skipped; the answer counts both.
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
    const file = await readFileBuffer(source, 'file', IMPORT_MAX_BYTES);
    if (!file) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.file', message: 'Required' }],
      });
    }
    const rows = parseContactsCsv(file.buffer.toString('utf8'));
    if (!rows) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.file', message: 'Header must name a number column' }],
      });
    }
    const candidates = contactsOf(rows);
    const valid = new Map<string, NewContact>();
    for (const candidate of candidates) {
      const number = /^[\d\s()+.-]+$/.test(candidate.number)
        ? candidate.number.replace(/\D/g, '')
        : '';
      if (number.length < 8 || number.length > 50 || valid.has(number)) continue;
      const email = optionalEmailField.safeParse(candidate.email);
      valid.set(number, {
        number,
        name: (candidate.name || number).slice(0, 50),
        email: email.success ? email.data : '',
      });
    }
    const imported = await this.#insertNew(ctx, [...valid.values()]);
    return { imported, skipped: candidates.length - imported };
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
