ALTER TABLE "schedules" ADD COLUMN "whatsapp_id" integer;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "message_id" bigint;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tickets_company_finished_idx" ON "tickets" USING btree ("company_id","finished_at") WHERE "tickets"."finished_at" is not null;--> statement-breakpoint
-- Tickets closed before the column existed: their last change was their closing.
UPDATE "tickets" SET "finished_at" = "updated_at" WHERE "status" = 'closed';