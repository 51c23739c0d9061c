-- Finishing promises the last part: expected_parts is the count the client recorded, and the main document waits
-- for those parts. Generated documents get a lease (lease_until, renewed by the writing process) so any process
-- can take over a version whose writer died, and takeovers counts those (a fencing token as well). At most one
-- version per document is the one a finish started; older rows stay false, as some sessions already hold two.
-- Rows still 'generating' from before have no lease and are taken over at once.
ALTER TABLE "consultation_sessions" ADD COLUMN "expected_parts" integer;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD COLUMN "finish_triggered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "generated_documents" ADD COLUMN "takeovers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "generated_documents_one_finish_triggered" ON "generated_documents" USING btree ("session_id","document_key") WHERE finish_triggered;--> statement-breakpoint
CREATE INDEX "generated_documents_generating_lease" ON "generated_documents" USING btree ("lease_until") WHERE status = 'generating';