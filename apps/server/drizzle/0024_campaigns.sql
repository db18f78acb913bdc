CREATE TABLE "campaign_opt_outs" (
	"company_id" integer NOT NULL,
	"number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_opt_outs_company_id_number_pk" PRIMARY KEY("company_id","number")
);
--> statement-breakpoint
CREATE TABLE "campaign_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_shipping" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"contact_id" integer,
	"ticket_id" integer,
	"message_id" bigint,
	"confirmation_message_id" bigint,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"confirmation_requested_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"skipped" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"message1" text DEFAULT '' NOT NULL,
	"message2" text DEFAULT '' NOT NULL,
	"message3" text DEFAULT '' NOT NULL,
	"message4" text DEFAULT '' NOT NULL,
	"message5" text DEFAULT '' NOT NULL,
	"confirmation_message1" text DEFAULT '' NOT NULL,
	"confirmation_message2" text DEFAULT '' NOT NULL,
	"confirmation_message3" text DEFAULT '' NOT NULL,
	"confirmation_message4" text DEFAULT '' NOT NULL,
	"confirmation_message5" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'INATIVA' NOT NULL,
	"confirmation" boolean DEFAULT false NOT NULL,
	"scheduled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"whatsapp_id" integer,
	"contact_list_id" integer,
	"tag_list_id" integer,
	"file_list_id" integer,
	"media_path" text,
	"media_name" text,
	"media_mime" text,
	"next_send_at" timestamp with time zone,
	"sends_in_row" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_company_id_key" UNIQUE("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "campaign_opt_outs" ADD CONSTRAINT "campaign_opt_outs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_settings" ADD CONSTRAINT "campaign_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_shipping" ADD CONSTRAINT "campaign_shipping_company_id_campaign_id_campaigns_company_id_id_fk" FOREIGN KEY ("company_id","campaign_id") REFERENCES "public"."campaigns"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_settings_company_key" ON "campaign_settings" USING btree ("company_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_shipping_campaign_number_key" ON "campaign_shipping" USING btree ("company_id","campaign_id","number");--> statement-breakpoint
CREATE INDEX "campaign_shipping_message_idx" ON "campaign_shipping" USING btree ("message_id") WHERE "campaign_shipping"."message_id" is not null and "campaign_shipping"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "campaign_shipping_number_idx" ON "campaign_shipping" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "campaign_shipping_sent_idx" ON "campaign_shipping" USING btree ("company_id","sent_at");--> statement-breakpoint
CREATE INDEX "campaigns_company_name_idx" ON "campaigns" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "campaigns_status_idx" ON "campaigns" USING btree ("status","scheduled_at");