ALTER TABLE "integration_deliveries" ADD COLUMN "error_code" text;--> statement-breakpoint
-- a try the receiver answered with an error status had its status stored: that is its code
UPDATE "integration_deliveries" SET "error_code" = 'ERR_INTEGRATION_HTTP_STATUS' WHERE "response_status" IS NOT NULL AND "last_error" IS NOT NULL;
