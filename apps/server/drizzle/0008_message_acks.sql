-- A conversation spans its contact's tickets, newest ticket first: the index walks them in
-- that order, so a page of a long history stops after its rows.
DROP INDEX "messages_ticket_created_idx";--> statement-breakpoint
CREATE INDEX "messages_ticket_created_idx" ON "messages" USING btree ("ticket_id" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
