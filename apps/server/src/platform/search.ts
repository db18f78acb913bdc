import { type SQL, sql } from 'drizzle-orm';
import { searchWords } from '../db/statements/search';
import type { TenantDb } from '../db/tenant';

/** People type numbers with spaces, brackets and signs; numbers are kept as digits. */
const NUMBER_LIKE = /^[\d\s()+.-]+$/;

/** A typed number's query: its digits anywhere in the contact's number, or starting a word. */
function numberQuery(term: string): SQL | undefined {
  const digits = term.replace(/\D/g, '');
  // Digits only, so nothing in them needs quoting.
  return NUMBER_LIKE.test(term) && digits
    ? sql`${`'${digits}':* | '+${digits}':*`}::tsquery`
    : undefined;
}

/**
 * The tsquery of a search over one document (contacts.search_document, migration 0004). Text:
 * every word typed must start a word of the document (words are runs of letters and digits, or
 * runs of other signs). A number: its digits anywhere in the contact's number, or starting a word.
 */
export function searchQuery(term: string): SQL {
  return numberQuery(term) ?? sql`search_query(${term})`;
}

/**
 * The same search over a document kept in chunks (ticket_search, migration 0005): one tsquery per
 * word typed (none when nothing searchable was typed), since a ticket's words may lie in different
 * chunks and it matches when each of them matches some chunk of it. The words are split by
 * PostgreSQL, exactly as the documents were.
 */
export async function searchWordQueries(db: TenantDb, term: string): Promise<SQL[]> {
  const number = numberQuery(term);
  if (number) return [number];
  const [row] = await db.run<{ words: string[] }>(searchWords, [term]);
  return (row?.words ?? []).map((word) => sql`search_prefix(${word})::tsquery`);
}
