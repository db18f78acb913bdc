-- The spec's queue carries these fields and the original client sends them with the queue form;
-- they were refused before, and are now kept as sent.
ALTER TABLE "queues" ADD COLUMN "complation_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "rating_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "token" text;
