import type { Contact } from '@atendi/shared';
import { asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { contacts } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired, likePattern } from '../../platform/routes';

const SAO_PAULO = 'America/Sao_Paulo';

export function presentContact(row: typeof contacts.$inferSelect): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    extraInfo: row.extraInfo,
    whatsappId: row.whatsappId,
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
  };
}

/** Name, number or email containing `term` (trigram indexes); typed phone signs are ignored. */
export function contactSearch(term: string): SQL {
  const digits = term.replace(/\D/g, '');
  const numberTerm = /^[\d\s()+.-]+$/.test(term) && digits ? digits : term;
  return or(
    ilike(contacts.name, likePattern(term)),
    ilike(contacts.number, likePattern(numberTerm)),
    ilike(contacts.email, likePattern(term)),
  )!;
}

/** Created from the start of `from` to the end of `to`, São Paulo days; sargable bounds. */
export function createdBetween(from: string | undefined, to: string | undefined): SQL | undefined {
  const start = from
    ? sql`${contacts.createdAt} >= (${from}::date)::timestamp at time zone ${SAO_PAULO}`
    : undefined;
  const end = to
    ? sql`${contacts.createdAt} < (${to}::date + 1)::timestamp at time zone ${SAO_PAULO}`
    : undefined;
  return start && end ? sql`(${start} and ${end})` : (start ?? end);
}

const byName = [asc(contacts.name), asc(contacts.id)];

export const contactsRepository = {
  async page(db: TenantDb, where: SQL | undefined, limit: number, offset: number) {
    const [rows, count] = await Promise.all([
      db
        .selectFrom(contacts, where)
        .orderBy(...byName)
        .limit(limit)
        .offset(offset),
      db.count(contacts, where),
    ]);
    return { rows: rows.map(presentContact), count };
  },

  async list(db: TenantDb, where: SQL | undefined, limit: number) {
    const rows = await db
      .selectFrom(contacts, where)
      .orderBy(...byName)
      .limit(limit);
    return rows.map(presentContact);
  },

  async byId(db: TenantDb, id: number) {
    const [row] = await db.selectFrom(contacts, eq(contacts.id, id)).limit(1);
    return row;
  },
};
