ALTER TABLE "audio_chunks" ADD COLUMN "channel_layout" text DEFAULT 'mono' NOT NULL;--> statement-breakpoint
ALTER TABLE "audio_chunks" ADD COLUMN "speaker_turns" jsonb;