-- A bulk load may leave its messages' words out of ticket_search and build its tickets' chunks
-- from scratch afterwards (ticket_search_build): the Whaticket import, whose batches hold messages
-- of thousands of tickets, would otherwise rewrite each ticket's newest chunk once per batch. It
-- says so for its own statements only (set_config('atendi.skip_search', 'on', true)); every other
-- writer, the server's inbound and outbound messages included, keeps adding words as before.
DROP TRIGGER messages_search_added ON messages;--> statement-breakpoint
CREATE TRIGGER messages_search_added AFTER INSERT ON messages REFERENCING NEW TABLE AS added
FOR EACH STATEMENT WHEN (current_setting('atendi.skip_search', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION ticket_search_messages_added();
