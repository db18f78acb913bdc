-- Trigram indexes for the inbox searches; pg_trgm ships with PostgreSQL and is a trusted extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_number_trgm_idx" ON "contacts" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_email_trgm_idx" ON "contacts" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "messages_body_trgm_idx" ON "messages" USING gin ("body" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "messages_ticket_unread_idx" ON "messages" USING btree ("ticket_id") WHERE "messages"."read" = false and "messages"."from_me" = false;--> statement-breakpoint
CREATE INDEX "quick_messages_company_user_idx" ON "quick_messages" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "tickets_company_updated_idx" ON "tickets" USING btree ("company_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tickets_company_created_idx" ON "tickets" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_company_unread_idx" ON "tickets" USING btree ("company_id","updated_at" DESC NULLS LAST) WHERE "tickets"."unread_messages" > 0;