CREATE TABLE "organization_fhir_endpoints" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"base_url" text NOT NULL,
	"auth" text NOT NULL,
	"client_id" text,
	"scope" text,
	"token_sealed" text,
	"private_key_sealed" text,
	"public_jwk" jsonb,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_fhir_endpoints" ADD CONSTRAINT "organization_fhir_endpoints_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_fhir_endpoints" ADD CONSTRAINT "organization_fhir_endpoints_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;