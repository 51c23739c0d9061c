ALTER TABLE "audio_chunks" ADD COLUMN "transcribed_by" text;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "language" text;