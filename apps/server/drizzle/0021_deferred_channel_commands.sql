CREATE TABLE "deferred_channel_commands" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deferred_channel_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"action" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deferred_channel_commands" ADD CONSTRAINT "deferred_channel_commands_company_id_connection_id_connections_company_id_id_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deferred_channel_commands_connection_idx" ON "deferred_channel_commands" USING btree ("connection_id","id");