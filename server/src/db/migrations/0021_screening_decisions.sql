ALTER TABLE "evaluation_results" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "decision_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "decided_on" jsonb;--> statement-breakpoint
-- Decisions made before this migration lived in "status": move them to "decision", taking the screening's verdict
-- of the time as what the reviewer saw, and give "status" back the screening's own value.
UPDATE "evaluation_results" SET
  "decision" = "status",
  "decided_on" = jsonb_build_object(
    'pre_evaluation', "pre_evaluation",
    'verdicts', COALESCE((SELECT jsonb_object_agg(c->>'criterion_id', c->>'verdict') FROM jsonb_array_elements("criteria") AS c), '{}'::jsonb)
  ),
  "status" = CASE
    WHEN EXISTS (SELECT 1 FROM jsonb_array_elements("criteria") AS c WHERE c->>'verdict' = 'unclear' OR (c->>'needs_review')::boolean)
    THEN 'requires_review' ELSE 'in_review' END
WHERE "status" IN ('approved', 'declined');
