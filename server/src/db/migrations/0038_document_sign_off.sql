ALTER TABLE "generated_documents" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD COLUMN "signed_by" uuid;--> statement-breakpoint
ALTER TABLE "organization_fhir_endpoints" ADD COLUMN "require_sign_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD CONSTRAINT "generated_documents_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;