import type { TenantStatement } from '../tenant';

/**
 * The words of a search, split as documents are (search_words of migration 0004), so a search
 * builds one condition per word. $1, the company, only because every tenant statement gets it.
 */
export const searchWords: TenantStatement = {
  name: 'search_words_v1',
  text: 'select coalesce(search_words($2::text), array[]::text[]) as words, $1::int as company',
};
