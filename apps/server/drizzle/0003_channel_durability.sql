CREATE TABLE "inbound_spool" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_spool_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "lease_epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD COLUMN "is_edited" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_state" text;--> statement-breakpoint
ALTER TABLE "inbound_spool" ADD CONSTRAINT "inbound_spool_company_id_connection_id_connections_company_id_id_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_spool_connection_idx" ON "inbound_spool" USING btree ("connection_id","id");--> statement-breakpoint
-- Outbound rows written before send states existed: a failure may be sent again, a waiting one is pending.
UPDATE "messages" SET "send_state" = CASE WHEN "ack" = -1 THEN 'failed' WHEN "ack" = 0 THEN 'pending' ELSE 'sent' END WHERE "from_me";
