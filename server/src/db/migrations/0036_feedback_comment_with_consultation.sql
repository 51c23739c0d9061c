-- A consultation's feedback outlives the consultation (its ratings count), but not its free-text comment: a
-- clinician may have written something of the patient there. When the consultation goes (retention, deletion,
-- its user's account), the foreign key clears session_id, and this trigger clears the comment with it.
CREATE FUNCTION "consultation_feedback_forget_comment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.session_id IS NULL THEN
    NEW.comment := NULL;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "consultation_feedback_comment_goes_with_consultation" BEFORE UPDATE OF "session_id" ON "consultation_feedback" FOR EACH ROW EXECUTE FUNCTION "consultation_feedback_forget_comment"();
--> statement-breakpoint
-- Comments of consultations already gone.
UPDATE "consultation_feedback" SET "comment" = NULL WHERE "session_id" IS NULL AND "comment" IS NOT NULL;
