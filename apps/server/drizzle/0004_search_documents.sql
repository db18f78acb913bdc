-- Search by words instead of substrings, from documents PostgreSQL keeps: one per ticket (its
-- contact's name and number, the words of its messages) and one per contact (name, number, email).
-- btree_gin lets one GIN index hold the company and the words; it is a trusted extension.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
-- The words of a text: runs of letters and digits and runs of other signs, lowercased, cut every
-- 64 characters. A search for a text looks for every word of it as the start of a word here.
CREATE FUNCTION search_words(body text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_remove(regexp_split_to_array(
    regexp_replace(regexp_replace(lower(body), '([[:alnum:]]+)', ' \1 ', 'g'), '(\S{64})', '\1 ', 'g'),
    '\s+'), '')
$$;--> statement-breakpoint
-- Every ending of a number's digits, marked with '+': a typed part of a number is the start of one.
CREATE FUNCTION search_number(number text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg('+' || substr(d, i)), '{}')
  FROM (SELECT regexp_replace(coalesce(number, ''), '\D', '', 'g') AS d) AS n,
    generate_series(1, length(d)) AS i
$$;--> statement-breakpoint
-- A search: every word of `term` as the start of a word of the document (null when it has none).
CREATE FUNCTION search_query(term text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_agg('''' || replace(replace(w, '\', '\\'), '''', '''''') || ''':*', ' & ')::tsquery
  FROM unnest(search_words(term)) AS w
$$;--> statement-breakpoint
CREATE FUNCTION contact_search_document(name text, number text, email text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(search_words(name) || search_number(number) || search_words(email))
$$;--> statement-breakpoint
-- A ticket's document from scratch: its contact, and its messages not deleted (newest 200 kB).
CREATE FUNCTION ticket_search_document(ticket integer) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT array_to_tsvector(search_words(c.name) || search_number(c.number) || coalesce(search_words(left((
    SELECT string_agg(m.body, ' ' ORDER BY m.id DESC) FROM messages m
    WHERE m.ticket_id = t.id AND NOT m.is_deleted), 200000)), '{}'))
  FROM tickets t JOIN contacts c ON c.id = t.contact_id
  WHERE t.id = ticket
$$;--> statement-breakpoint
CREATE TABLE "ticket_search" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "contacts_name_trgm_idx";--> statement-breakpoint
DROP INDEX "contacts_number_trgm_idx";--> statement-breakpoint
DROP INDEX "contacts_email_trgm_idx";--> statement-breakpoint
DROP INDEX "messages_body_trgm_idx";--> statement-breakpoint
DROP INDEX "tickets_company_status_updated_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "search_document" "tsvector" GENERATED ALWAYS AS (contact_search_document(name, number, email)) STORED;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_company_id_ticket_id_tickets_company_id_id_fk" FOREIGN KEY ("company_id","ticket_id") REFERENCES "public"."tickets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "ticket_search" ("ticket_id", "company_id", "document")
SELECT t.id, t.company_id, array_to_tsvector(search_words(c.name) || search_number(c.number)
  || coalesce(search_words(left(m.body, 200000)), '{}'))
FROM tickets t JOIN contacts c ON c.id = t.contact_id
LEFT JOIN (SELECT ticket_id, string_agg(body, ' ' ORDER BY id DESC) AS body FROM messages
  WHERE NOT is_deleted GROUP BY ticket_id) m ON m.ticket_id = t.id;--> statement-breakpoint
CREATE INDEX "ticket_search_document_idx" ON "ticket_search" USING gin ("company_id","document");--> statement-breakpoint
CREATE INDEX "contacts_search_idx" ON "contacts" USING gin ("company_id","search_document");--> statement-breakpoint
CREATE INDEX "tickets_company_status_updated_id_idx" ON "tickets" USING btree ("company_id","status","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tickets_company_status_idx" ON "tickets" USING btree ("company_id","status");--> statement-breakpoint
-- A new ticket starts with its contact's words; set-based, so bulk inserts cost one statement.
CREATE FUNCTION ticket_search_tickets_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_search (ticket_id, company_id, document)
  SELECT a.id, a.company_id, array_to_tsvector(search_words(c.name) || search_number(c.number))
  FROM added a JOIN contacts c ON c.id = a.contact_id
  ORDER BY a.id
  ON CONFLICT (ticket_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tickets_search_added AFTER INSERT ON tickets REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION ticket_search_tickets_added();--> statement-breakpoint
-- New messages add their words to their tickets' documents (100 kB of text per ticket and
-- statement; a document stops growing at 256 kB). A document already holding every word is not
-- written again.
CREATE FUNCTION ticket_search_messages_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_search AS s (ticket_id, company_id, document)
  SELECT a.ticket_id, a.company_id, array_to_tsvector(search_words(left(string_agg(a.body, ' '), 100000)))
  FROM added a WHERE a.body <> '' AND NOT a.is_deleted
  GROUP BY a.ticket_id, a.company_id
  ORDER BY a.ticket_id
  ON CONFLICT (ticket_id) DO UPDATE SET document = s.document || excluded.document
  WHERE pg_column_size(s.document) < 262144
    AND NOT tsvector_to_array(excluded.document) <@ tsvector_to_array(s.document);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER messages_search_added AFTER INSERT ON messages REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION ticket_search_messages_added();--> statement-breakpoint
-- An edited or deleted message, or a ticket moved to another contact: its document is rebuilt.
CREATE FUNCTION ticket_search_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'tickets' THEN
    UPDATE ticket_search SET document = ticket_search_document(NEW.id) WHERE ticket_id = NEW.id;
  ELSE
    UPDATE ticket_search SET document = ticket_search_document(NEW.ticket_id)
    WHERE ticket_id = NEW.ticket_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER messages_search_changed AFTER UPDATE OF body, is_deleted ON messages FOR EACH ROW
WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted)
EXECUTE FUNCTION ticket_search_rebuild();--> statement-breakpoint
CREATE TRIGGER tickets_search_contact_changed AFTER UPDATE OF contact_id ON tickets FOR EACH ROW
WHEN (OLD.contact_id IS DISTINCT FROM NEW.contact_id)
EXECUTE FUNCTION ticket_search_rebuild();--> statement-breakpoint
-- A contact's new name or number reaches the documents of its tickets.
CREATE FUNCTION ticket_search_contact_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_search s SET document = ticket_search_document(s.ticket_id)
  FROM tickets t
  WHERE t.company_id = NEW.company_id AND t.contact_id = NEW.id AND s.ticket_id = t.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_search_changed AFTER UPDATE OF name, number ON contacts FOR EACH ROW
WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.number IS DISTINCT FROM NEW.number)
EXECUTE FUNCTION ticket_search_contact_changed();
