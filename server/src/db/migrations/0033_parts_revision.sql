CREATE SEQUENCE "public"."audio_chunks_revision" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Added without a default, then given one: a volatile default on ADD COLUMN would rewrite the whole table under
-- an exclusive lock. Parts stored before keep a null revision until they change.
ALTER TABLE "audio_chunks" ADD COLUMN "revision" bigint;--> statement-breakpoint
ALTER TABLE "audio_chunks" ALTER COLUMN "revision" SET DEFAULT nextval('audio_chunks_revision');--> statement-breakpoint
-- Owned by the column, so that a restore moves it past the restored revisions (admin/backup-catalog.ts,
-- resetSequences): a revision drawn again lower than one restored would let a change go unseen.
ALTER SEQUENCE "audio_chunks_revision" OWNED BY "audio_chunks"."revision";--> statement-breakpoint
-- A new revision whenever what a consultation's transcript is assembled from changes (not for the lock's renewals).
CREATE FUNCTION "audio_chunks_next_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.revision := nextval('audio_chunks_revision');
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "audio_chunks_revision" BEFORE UPDATE OF "transcript", "speaker_turns", "transcription_status", "duration_ms", "order", "session_id" ON "audio_chunks" FOR EACH ROW EXECUTE FUNCTION "audio_chunks_next_revision"();
