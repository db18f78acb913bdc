ALTER TABLE "chat_messages" ADD COLUMN "media_path" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "media_name" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "media_mime" text;