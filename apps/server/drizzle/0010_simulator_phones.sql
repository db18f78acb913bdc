-- Phones added on the simulator page before they wrote: listed again after a reload.
CREATE TABLE "simulator_phones" (
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"phone" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulator_phones_connection_id_phone_pk" PRIMARY KEY("connection_id","phone")
);
--> statement-breakpoint
ALTER TABLE "simulator_phones" ADD CONSTRAINT "simulator_phones_company_id_connection_id_connections_company_id_id_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."connections"("company_id","id") ON DELETE cascade ON UPDATE no action;