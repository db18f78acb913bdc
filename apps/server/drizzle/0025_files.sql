CREATE TABLE "file_list_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"file_list_id" integer NOT NULL,
	"name" text NOT NULL,
	"media_path" text,
	"media_type" text,
	"media_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"message" text NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_lists_company_id_key" UNIQUE("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "file_list_options" ADD CONSTRAINT "file_list_options_company_id_file_list_id_file_lists_company_id_id_fk" FOREIGN KEY ("company_id","file_list_id") REFERENCES "public"."file_lists"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_lists" ADD CONSTRAINT "file_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_lists" ADD CONSTRAINT "file_lists_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_list_options_list_idx" ON "file_list_options" USING btree ("company_id","file_list_id","id");--> statement-breakpoint
CREATE INDEX "file_lists_company_name_idx" ON "file_lists" USING btree ("company_id","name");