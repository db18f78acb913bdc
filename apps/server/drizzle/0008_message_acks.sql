-- Message acks take the spec's numbers (WhatsApp's own message status): 1 waiting to be sent,
-- 2 sent, 3 delivered, 4 read, 5 played; 0 a send that failed (was -1). The company's messages
-- move up one; a contact's messages reached the company, so they are delivered (3).
UPDATE "messages" SET "ack" = CASE WHEN "from_me" THEN "ack" + 1 ELSE 3 END;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "ack" SET DEFAULT 1;--> statement-breakpoint
-- The simulator's network speaks the same numbers: its phones' ticks move up one as well.
UPDATE "simulator_messages" SET "ack" = "ack" + 1;--> statement-breakpoint
-- A conversation spans its contact's tickets, newest ticket first: the index walks them in
-- that order, so a page of a long history stops after its rows.
DROP INDEX "messages_ticket_created_idx";--> statement-breakpoint
CREATE INDEX "messages_ticket_created_idx" ON "messages" USING btree ("ticket_id" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
