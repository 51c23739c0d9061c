ALTER TABLE "consultation_sessions" ADD COLUMN "consent_required" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "consent_method" text;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "consent_by" uuid;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "recording_consent" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD CONSTRAINT "consultation_sessions_consent_by_users_id_fk" FOREIGN KEY ("consent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;