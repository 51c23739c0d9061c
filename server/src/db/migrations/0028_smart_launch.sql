CREATE TABLE "record_system_identities" (
	"iss" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "record_system_identities_iss_subject_pk" PRIMARY KEY("iss","subject")
);
--> statement-breakpoint
CREATE TABLE "smart_launches" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"iss" text NOT NULL,
	"token_endpoint" text NOT NULL,
	"verifier_sealed" text NOT NULL,
	"browser_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "fhir_patient_id" text;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "fhir_encounter_id" text;--> statement-breakpoint
ALTER TABLE "organization_fhir_endpoints" ADD COLUMN "launch_client_id" text;--> statement-breakpoint
ALTER TABLE "record_system_identities" ADD CONSTRAINT "record_system_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_system_identities" ADD CONSTRAINT "record_system_identities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_launches" ADD CONSTRAINT "smart_launches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;