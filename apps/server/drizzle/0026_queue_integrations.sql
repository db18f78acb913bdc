CREATE TABLE "integration_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_sessions_ticket_key" UNIQUE("company_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "queue_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"project_name" text DEFAULT '' NOT NULL,
	"json_content_encrypted" text,
	"json_content_hint" text,
	"language" text DEFAULT 'pt-BR' NOT NULL,
	"url_n8n" text DEFAULT '' NOT NULL,
	"typebot_slug" text DEFAULT '' NOT NULL,
	"typebot_expires" integer DEFAULT 1 NOT NULL,
	"typebot_delay_message" integer DEFAULT 1000 NOT NULL,
	"typebot_keyword_finish" text DEFAULT '' NOT NULL,
	"typebot_keyword_restart" text DEFAULT '' NOT NULL,
	"typebot_unknown_message" text DEFAULT '' NOT NULL,
	"typebot_restart_message" text DEFAULT '' NOT NULL,
	"secret_encrypted" text,
	"secret_hint" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_integrations_company_id_key" UNIQUE("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_company_id_integration_id_queue_integrations_company_id_id_fk" FOREIGN KEY ("company_id","integration_id") REFERENCES "public"."queue_integrations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_sessions" ADD CONSTRAINT "integration_sessions_company_id_ticket_id_tickets_company_id_id_fk" FOREIGN KEY ("company_id","ticket_id") REFERENCES "public"."tickets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_sessions" ADD CONSTRAINT "integration_sessions_company_id_integration_id_queue_integrations_company_id_id_fk" FOREIGN KEY ("company_id","integration_id") REFERENCES "public"."queue_integrations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD CONSTRAINT "queue_integrations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_deliveries_integration_idx" ON "integration_deliveries" USING btree ("company_id","integration_id","id");--> statement-breakpoint
CREATE INDEX "queue_integrations_company_name_idx" ON "queue_integrations" USING btree ("company_id","name");