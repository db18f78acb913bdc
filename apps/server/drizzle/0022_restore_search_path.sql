-- A restore (pg_restore) runs with an empty search_path: the generated search document of
-- contacts must find the functions it calls wherever it is computed, so it names their schema.
ALTER FUNCTION contact_search_document(text, text, text) SET search_path = public;
