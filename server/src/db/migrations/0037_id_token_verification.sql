-- Launches under way began without a nonce for their ID token, so none of them could be completed now; they live
-- ten minutes at most, and the clinician opens the consultation again from the record system.
DELETE FROM "smart_launches";
--> statement-breakpoint
ALTER TABLE "smart_launches" ADD COLUMN "id_token_issuer" text NOT NULL;--> statement-breakpoint
ALTER TABLE "smart_launches" ADD COLUMN "jwks_uri" text NOT NULL;--> statement-breakpoint
ALTER TABLE "smart_launches" ADD COLUMN "id_token_nonce_hash" text NOT NULL;
