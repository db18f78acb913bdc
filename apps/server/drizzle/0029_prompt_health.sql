ALTER TABLE "prompts" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "last_error_at" timestamp with time zone;