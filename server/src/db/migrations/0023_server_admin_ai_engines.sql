CREATE TABLE "ai_engine_settings" (
	"kind" text PRIMARY KEY NOT NULL,
	"base_url" text NOT NULL,
	"model" text NOT NULL,
	"api_key_sealed" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "server_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_engine_settings" ADD CONSTRAINT "ai_engine_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;