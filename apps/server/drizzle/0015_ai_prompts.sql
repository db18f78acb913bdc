CREATE TABLE "prompt_completions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"prompt_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"prompt" text NOT NULL,
	"voice" text DEFAULT 'texto' NOT NULL,
	"voice_key_encrypted" text,
	"voice_region" text DEFAULT '' NOT NULL,
	"max_tokens" integer DEFAULT 100 NOT NULL,
	"temperature" real DEFAULT 1 NOT NULL,
	"api_key_encrypted" text,
	"api_key_hint" text,
	"voice_key_hint" text,
	"queue_id" integer NOT NULL,
	"max_messages" integer DEFAULT 10 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompts_company_id_key" UNIQUE("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "ai_handed_over_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prompt_completions" ADD CONSTRAINT "prompt_completions_company_id_ticket_id_tickets_company_id_id_fk" FOREIGN KEY ("company_id","ticket_id") REFERENCES "public"."tickets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_company_id_queue_id_queues_company_id_id_fk" FOREIGN KEY ("company_id","queue_id") REFERENCES "public"."queues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompt_completions_ticket_idx" ON "prompt_completions" USING btree ("company_id","ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "prompts_company_name_idx" ON "prompts" USING btree ("company_id","name");