CREATE TABLE "clinical_trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trial_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"screening_id" uuid,
	"pre_evaluation" text NOT NULL,
	"criteria_met" integer NOT NULL,
	"criteria_total" integer NOT NULL,
	"criteria" jsonb NOT NULL,
	"explanation" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"engine" text NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_patient_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"pages" integer NOT NULL,
	"blob_key" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_spaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"organization_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_criteria" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trial_id" uuid NOT NULL,
	"definition" text NOT NULL,
	"type" text NOT NULL,
	"needs_review" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_screenings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trial_id" uuid NOT NULL,
	"started_by" uuid,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"engine" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "clinical_trials" ADD CONSTRAINT "clinical_trials_space_id_research_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."research_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_trial_id_clinical_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."clinical_trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_patient_id_research_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."research_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_screening_id_trial_screenings_id_fk" FOREIGN KEY ("screening_id") REFERENCES "public"."trial_screenings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_patient_files" ADD CONSTRAINT "research_patient_files_patient_id_research_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."research_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_patients" ADD CONSTRAINT "research_patients_space_id_research_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."research_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_spaces" ADD CONSTRAINT "research_spaces_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_spaces" ADD CONSTRAINT "research_spaces_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_criteria" ADD CONSTRAINT "trial_criteria_trial_id_clinical_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."clinical_trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_screenings" ADD CONSTRAINT "trial_screenings_trial_id_clinical_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."clinical_trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_screenings" ADD CONSTRAINT "trial_screenings_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinical_trials_space_idx" ON "clinical_trials" USING btree ("space_id");--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_results_trial_patient_unique" ON "evaluation_results" USING btree ("trial_id","patient_id");--> statement-breakpoint
CREATE INDEX "research_patient_files_patient_idx" ON "research_patient_files" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "research_patients_space_idx" ON "research_patients" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "research_spaces_creator_idx" ON "research_spaces" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "research_spaces_org_idx" ON "research_spaces" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "trial_criteria_trial_idx" ON "trial_criteria" USING btree ("trial_id");--> statement-breakpoint
CREATE INDEX "trial_screenings_trial_idx" ON "trial_screenings" USING btree ("trial_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trial_screenings_one_running" ON "trial_screenings" USING btree ("trial_id") WHERE status = 'running';