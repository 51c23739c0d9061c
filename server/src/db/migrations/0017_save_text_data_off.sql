-- New accounts keep no text past the retention window unless the clinician turns it on. Existing accounts keep
-- their stored value: the database cannot tell a deliberate choice from the old default, so none is flipped.
ALTER TABLE "users" ALTER COLUMN "save_text_data" SET DEFAULT false;
