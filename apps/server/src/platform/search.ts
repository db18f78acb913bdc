import { type SQL, sql } from 'drizzle-orm';

/** People type numbers with spaces, brackets and signs; numbers are kept as digits. */
const NUMBER_LIKE = /^[\d\s()+.-]+$/;

/**
 * The tsquery of a search over the documents of migration 0004 (ticket_search and
 * contacts.search_document). Text: every word typed must start a word of the document (words are
 * runs of letters and digits, or runs of other signs). A number: its digits anywhere in the
 * contact's number, or starting a word.
 */
export function searchQuery(term: string): SQL {
  const digits = term.replace(/\D/g, '');
  if (NUMBER_LIKE.test(term) && digits) {
    // Digits only, so nothing in them needs quoting.
    return sql`${`'${digits}':* | '+${digits}':*`}::tsquery`;
  }
  return sql`search_query(${term})`;
}
