CREATE TABLE "record_system_link_requests" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"iss" text NOT NULL,
	"subject" text NOT NULL,
	"subject_name" text,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"fhir_patient_id" text,
	"fhir_encounter_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_system_link_requests" ADD CONSTRAINT "record_system_link_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_system_link_requests" ADD CONSTRAINT "record_system_link_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;