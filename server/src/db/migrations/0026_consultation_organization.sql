ALTER TABLE "consultation_sessions" ADD COLUMN "organization_id" uuid;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD CONSTRAINT "consultation_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Consultations from before: the organization their clinician belongs to now is the best that is known.
UPDATE "consultation_sessions" AS s SET "organization_id" = u."organization_id" FROM "users" AS u WHERE u."id" = s."user_id";
