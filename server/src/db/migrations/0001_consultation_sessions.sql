CREATE TABLE "audio_chunks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"order" integer NOT NULL,
	"blob_key" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"duration_ms" integer,
	"transcript" text,
	"transcription_status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultation_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"consultation_type_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"recording_state" text DEFAULT 'idle' NOT NULL,
	"mobile" boolean DEFAULT false NOT NULL,
	"show_transcription" boolean DEFAULT false NOT NULL,
	"platform" text,
	"mics_info" jsonb,
	"user_inputs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"transcription_override" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "audio_chunks" ADD CONSTRAINT "audio_chunks_session_id_consultation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."consultation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_sessions" ADD CONSTRAINT "consultation_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audio_chunks_session_order" ON "audio_chunks" USING btree ("session_id","order");--> statement-breakpoint
CREATE INDEX "audio_chunks_pending_idx" ON "audio_chunks" USING btree ("transcription_status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "consultation_sessions_user_idx" ON "consultation_sessions" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_sessions_one_active" ON "consultation_sessions" USING btree ("user_id") WHERE status = 'active';