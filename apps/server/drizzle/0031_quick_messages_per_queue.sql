DROP INDEX "quick_messages_personal_shortcode_key";--> statement-breakpoint
ALTER TABLE "quick_messages" ADD COLUMN "queue_id" integer;--> statement-breakpoint
ALTER TABLE "quick_messages" ADD CONSTRAINT "quick_messages_company_id_queue_id_queues_company_id_id_fk" FOREIGN KEY ("company_id","queue_id") REFERENCES "public"."queues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quick_messages_company_queue_idx" ON "quick_messages" USING btree ("company_id","queue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quick_messages_queue_shortcode_key" ON "quick_messages" USING btree ("company_id","queue_id",lower("shortcode")) WHERE not "quick_messages"."geral" and "quick_messages"."queue_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "quick_messages_personal_shortcode_key" ON "quick_messages" USING btree ("company_id","user_id",lower("shortcode")) WHERE not "quick_messages"."geral" and "quick_messages"."queue_id" is null;