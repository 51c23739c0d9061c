-- One recorder per consultation: the device holding a fresh lease records; another device asks for a handover
-- and records once the holder let go (reporting its part count) or its lease lapsed.
ALTER TABLE "consultation_sessions" ADD COLUMN "recorder_device_id" text;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "recorder_mobile" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "recorder_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "recorder_next_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "handover_device_id" text;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD COLUMN "handover_mobile" boolean DEFAULT false NOT NULL;