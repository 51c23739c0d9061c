ALTER TABLE "research_patient_files" ADD COLUMN "text_status" text DEFAULT 'read' NOT NULL;--> statement-breakpoint
ALTER TABLE "research_patient_files" ADD COLUMN "language" text DEFAULT 'pt' NOT NULL;--> statement-breakpoint
CREATE INDEX "research_patient_files_ocr_idx" ON "research_patient_files" USING btree ("text_status");--> statement-breakpoint
UPDATE "research_patient_files" SET "text_status" = 'no_text' WHERE btrim("text") = '';
