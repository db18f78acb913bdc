-- A ticket's search words in chunks instead of one document. With one document, every message
-- that brought a new word rewrote all of the conversation's words (a new row version, and every
-- word put in the GIN index again), so an inbound message cost more the longer its conversation.
-- Now a new message merges its words into the ticket's newest chunk or starts the next one: it
-- rewrites at most one chunk's words (besides its own). Rows of 0004 become chunk 0.
ALTER TABLE "ticket_search" ADD COLUMN "chunk" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_search" DROP CONSTRAINT "ticket_search_pkey";--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_ticket_id_chunk_pk" PRIMARY KEY("ticket_id","chunk");--> statement-breakpoint
-- The distinct words a chunk holds at most (200): what a new message rewrites at worst.
CREATE FUNCTION search_chunk_words() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS 'SELECT 200';--> statement-breakpoint
-- The chunks a ticket holds at most (1,024, some 200,000 words); later words are not added. This
-- replaces 0004's cap of 256 kB per document.
CREATE FUNCTION search_chunks_max() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS 'SELECT 1024';--> statement-breakpoint
-- A word of a search as a tsquery term: the start of a word, quoted.
CREATE FUNCTION search_prefix(word text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '''' || replace(replace(word, '\', '\\'), '''', '''''') || ''':*'
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_query(term text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_agg(search_prefix(w), ' & ')::tsquery FROM unnest(search_words(term)) AS w
$$;--> statement-breakpoint
-- A search over chunks: one query per word of `term` (null when it has none). A ticket matches
-- when each of them matches some chunk of it, since its words may be in different chunks.
CREATE FUNCTION search_queries(term text) RETURNS tsquery[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(search_prefix(u.w)::tsquery ORDER BY u.i)
  FROM unnest(search_words(term)) WITH ORDINALITY AS u(w, i)
$$;--> statement-breakpoint
-- A ticket's chunks from scratch: the words of its contact's name, the endings of its number, and
-- the words of its messages not deleted (newest first, 200,000 characters at most), each word
-- once, search_chunk_words() to a chunk.
CREATE FUNCTION ticket_search_build(ticket integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM ticket_search WHERE ticket_id = ticket;
  INSERT INTO ticket_search (ticket_id, chunk, company_id, document)
  SELECT t.id, w.chunk, t.company_id, array_to_tsvector(array_agg(w.word))
  FROM tickets t JOIN contacts c ON c.id = t.contact_id
  CROSS JOIN LATERAL (
    SELECT u.word, (row_number() OVER (ORDER BY min(u.i)) - 1) / search_chunk_words() AS chunk
    FROM unnest(search_words(c.name) || search_number(c.number) || coalesce(search_words(left((
      SELECT string_agg(m.body, ' ' ORDER BY m.id DESC) FROM messages m
      WHERE m.ticket_id = t.id AND NOT m.is_deleted), 200000)), '{}')) WITH ORDINALITY AS u(word, i)
    GROUP BY u.word
  ) w
  WHERE t.id = ticket AND w.chunk < search_chunks_max()
  GROUP BY t.id, t.company_id, w.chunk;
$$;--> statement-breakpoint
-- A new ticket's contact words go to chunk 0, merged: when one statement inserts a ticket and its
-- first message (the inbound statement does), the messages' trigger may run first and have
-- written chunk 0 already.
CREATE OR REPLACE FUNCTION ticket_search_tickets_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_search AS s (ticket_id, chunk, company_id, document)
  SELECT a.id, 0, a.company_id, array_to_tsvector(search_words(c.name) || search_number(c.number))
  FROM added a JOIN contacts c ON c.id = a.contact_id
  ORDER BY a.id
  ON CONFLICT (ticket_id, chunk) DO UPDATE SET document = s.document || excluded.document;
  RETURN NULL;
END $$;--> statement-breakpoint
-- New messages add their words (100 kB of text per ticket and statement) to their tickets, set-
-- based so bulk inserts cost one statement. Only words missing from a ticket's newest chunk are
-- written: into that chunk when they fit in it, else into new chunks after it. Rows merge on
-- conflict, so statements adding to one ticket at the same time lose no word; rows are written in
-- ticket order, so they lock in the same order and do not deadlock.
CREATE OR REPLACE FUNCTION ticket_search_messages_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_search AS s (ticket_id, chunk, company_id, document)
  SELECT n.ticket_id, p.chunk, n.company_id, p.document
  FROM (
    SELECT a.ticket_id, a.company_id,
      array_to_tsvector(search_words(left(string_agg(a.body, ' '), 100000))) AS words
    FROM added a WHERE a.body <> '' AND NOT a.is_deleted
    GROUP BY a.ticket_id, a.company_id
  ) n
  LEFT JOIN LATERAL (
    SELECT c.chunk, c.document FROM ticket_search c
    WHERE c.ticket_id = n.ticket_id ORDER BY c.chunk DESC LIMIT 1
  ) newest ON true
  CROSS JOIN LATERAL (
    SELECT tsvector_to_array(ts_delete(n.words, coalesce(tsvector_to_array(newest.document), '{}')))
      AS words
  ) fresh
  CROSS JOIN LATERAL (
    SELECT coalesce(length(newest.document), 0) + cardinality(fresh.words) <= search_chunk_words()
      AS fits
  ) f
  CROSS JOIN LATERAL (
    SELECT CASE WHEN f.fits THEN coalesce(newest.chunk, 0) ELSE coalesce(newest.chunk + 1, 0) + g END
        AS chunk,
      array_to_tsvector(fresh.words[g * search_chunk_words() + 1:(g + 1) * search_chunk_words()])
        AS document
    FROM generate_series(0, (cardinality(fresh.words) - 1) / search_chunk_words()) AS g
    WHERE cardinality(fresh.words) > 0
  ) p
  WHERE p.chunk < search_chunks_max()
  ORDER BY n.ticket_id, p.chunk
  ON CONFLICT (ticket_id, chunk) DO UPDATE SET document = s.document || excluded.document;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An edited or deleted message, or a ticket moved to another contact: its chunks are rebuilt.
CREATE OR REPLACE FUNCTION ticket_search_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'tickets' THEN
    PERFORM ticket_search_build(NEW.id);
  ELSE
    PERFORM ticket_search_build(NEW.ticket_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A contact's new name or number reaches the chunks of its tickets.
CREATE OR REPLACE FUNCTION ticket_search_contact_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_search_build(t.id) FROM tickets t
  WHERE t.company_id = NEW.company_id AND t.contact_id = NEW.id
  ORDER BY t.id;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP FUNCTION ticket_search_document(integer);
