CREATE TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "research_patient_files" ADD COLUMN "ocr_locked_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_limit_windows_resets_at_idx" ON "rate_limit_windows" USING btree ("resets_at");