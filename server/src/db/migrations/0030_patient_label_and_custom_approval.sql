ALTER TABLE "consultation_sessions" ADD COLUMN "patient_label" text;--> statement-breakpoint
ALTER TABLE "custom_document_requests" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "record_system_link_requests" ADD COLUMN "patient_label" text;