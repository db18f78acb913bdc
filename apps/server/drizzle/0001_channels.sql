CREATE TABLE "connection_auth_keys" (
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connection_auth_keys_connection_id_key_pk" PRIMARY KEY("connection_id","key")
);
--> statement-breakpoint
CREATE TABLE "simulator_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "simulator_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"phone" text NOT NULL,
	"phone_name" text DEFAULT '' NOT NULL,
	"direction" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"kind" text DEFAULT 'text' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media_path" text,
	"mime_type" text,
	"file_name" text,
	"location" jsonb,
	"vcard" text,
	"quoted_provider_message_id" text,
	"ack" integer DEFAULT 1 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "session_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "media_mime" text;--> statement-breakpoint
ALTER TABLE "connection_auth_keys" ADD CONSTRAINT "connection_auth_keys_company_id_connection_id_connections_company_id_id_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulator_messages" ADD CONSTRAINT "simulator_messages_company_id_connection_id_connections_company_id_id_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "simulator_messages_conversation_idx" ON "simulator_messages" USING btree ("connection_id","phone","id");--> statement-breakpoint
CREATE INDEX "simulator_messages_pending_idx" ON "simulator_messages" USING btree ("connection_id","id") WHERE "simulator_messages"."direction" = 'inbound' and "simulator_messages"."delivered_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "simulator_messages_provider_id_key" ON "simulator_messages" USING btree ("connection_id","provider_message_id");