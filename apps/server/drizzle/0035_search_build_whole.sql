-- A ticket's chunks from scratch, of the words of its newest `max_chars` characters of messages
-- (all of them when null). A rebuild after an edit keeps 200,000 as before; the Whaticket import,
-- which builds each imported ticket's words once instead of as each page of messages is written
-- (0034), takes them all, as adding them message by message did (up to search_chunks_max()).
CREATE FUNCTION ticket_search_build(ticket integer, max_chars integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM ticket_search WHERE ticket_id = ticket;
  INSERT INTO ticket_search (ticket_id, chunk, company_id, document)
  SELECT t.id, w.chunk, t.company_id, array_to_tsvector(array_agg(w.word))
  FROM tickets t JOIN contacts c ON c.id = t.contact_id
  CROSS JOIN LATERAL (
    SELECT string_agg(m.body, ' ' ORDER BY m.id DESC) AS body FROM messages m
    WHERE m.ticket_id = t.id AND NOT m.is_deleted
  ) m
  CROSS JOIN LATERAL (
    SELECT u.word, (row_number() OVER (ORDER BY min(u.i)) - 1) / search_chunk_words() AS chunk
    FROM unnest(search_words(c.name) || search_number(c.number)
      || coalesce(search_words(coalesce(left(m.body, max_chars), m.body)), '{}')) WITH ORDINALITY AS u(word, i)
    GROUP BY u.word
  ) w
  WHERE t.id = ticket AND w.chunk < search_chunks_max()
  GROUP BY t.id, t.company_id, w.chunk;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_search_build(ticket integer) RETURNS void LANGUAGE sql AS $$
  SELECT ticket_search_build(ticket, 200000);
$$;
