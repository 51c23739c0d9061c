-- The audit chain gets a key (server/src/audit/hash-chain.ts): new events are hashed with HMAC-SHA-256 under a
-- secret kept outside the database (DATA_DIR/audit-key or AUDIT_KEY), version 2, naming the key's id. Events
-- already written keep their plain SHA-256 hashes and are marked version 1, so they still verify. Adding columns
-- with a constant default changes no row, so the append-only triggers are not involved.
ALTER TABLE "audit_events" ADD COLUMN "hash_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash_key_id" text;