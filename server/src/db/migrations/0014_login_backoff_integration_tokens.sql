CREATE TABLE "login_backoff" (
	"account_key" text NOT NULL,
	"source_class" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	CONSTRAINT "login_backoff_account_key_source_class_pk" PRIMARY KEY("account_key","source_class")
);
--> statement-breakpoint
CREATE TABLE "login_known_sources" (
	"user_id" uuid NOT NULL,
	"source_hash" text NOT NULL,
	"kind" text NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_known_sources_user_id_source_hash_pk" PRIMARY KEY("user_id","source_hash")
);
--> statement-breakpoint
CREATE TABLE "used_integration_tokens" (
	"jti_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_known_sources" ADD CONSTRAINT "login_known_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_backoff_last_failure_idx" ON "login_backoff" USING btree ("last_failure_at");--> statement-breakpoint
CREATE INDEX "used_integration_tokens_expires_idx" ON "used_integration_tokens" USING btree ("expires_at");