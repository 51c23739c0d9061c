CREATE TABLE "consultation_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid,
	"user_id" uuid NOT NULL,
	"doctor_satisfaction" integer NOT NULL,
	"patient_satisfaction" integer,
	"notes_quality" integer,
	"editing_time" text,
	"comment" text,
	"share_anonymously" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processor_input_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"processor_input_id" text NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "selectable_document_guides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"document_id" text NOT NULL,
	"content" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audio_chunks" ADD COLUMN "audio_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD COLUMN "template_id" uuid;--> statement-breakpoint
ALTER TABLE "consultation_feedback" ADD CONSTRAINT "consultation_feedback_session_id_consultation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."consultation_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_feedback" ADD CONSTRAINT "consultation_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processor_input_templates" ADD CONSTRAINT "processor_input_templates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "selectable_document_guides" ADD CONSTRAINT "selectable_document_guides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_feedback_one" ON "consultation_feedback" USING btree ("session_id","user_id");--> statement-breakpoint
CREATE INDEX "processor_input_templates_user_idx" ON "processor_input_templates" USING btree ("user_id","processor_input_id");--> statement-breakpoint
CREATE UNIQUE INDEX "selectable_document_guides_one" ON "selectable_document_guides" USING btree ("user_id","document_id");--> statement-breakpoint
ALTER TABLE "generated_documents" ADD CONSTRAINT "generated_documents_template_id_processor_input_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."processor_input_templates"("id") ON DELETE set null ON UPDATE no action;