-- A ticket search splits the typed words with search_words and builds one condition per word
-- (modules/tickets/tickets.repository.ts), so 0005's array of queries has no caller.
DROP FUNCTION search_queries(text);
