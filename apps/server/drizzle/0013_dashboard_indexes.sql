CREATE INDEX "contacts_company_created_people_idx" ON "contacts" USING btree ("company_id","created_at") WHERE not "contacts"."is_group";--> statement-breakpoint
-- hand-written: INCLUDE columns, which drizzle cannot declare (the dashboard reads the period's
-- closed tickets and ratings from these indexes alone).
DROP INDEX IF EXISTS "tickets_company_finished_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_finished_idx" ON "tickets" USING btree ("company_id","finished_at") INCLUDE ("user_id","accepted_at","created_at") WHERE "tickets"."finished_at" is not null;--> statement-breakpoint
CREATE INDEX "user_ratings_company_created_idx" ON "user_ratings" USING btree ("company_id","created_at") INCLUDE ("user_id","rate");
