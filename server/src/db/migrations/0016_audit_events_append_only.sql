-- The audit log is append-only: rows can be added and read, never changed or removed (server/src/audit/).
-- Triggers refuse UPDATE, DELETE and TRUNCATE whoever asks; the table's owner or a superuser could still disable
-- or drop them, which is why each row also carries a hash chain that shows any change.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_update_or_delete" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();
--> statement-breakpoint
-- What the migrating role can take away: nobody is granted UPDATE, DELETE or TRUNCATE, the migrating role (usually
-- the owner) included. An owner can grant them back to itself; in production the application should connect as a
-- role that does not own the table and holds only SELECT and INSERT on it (README, "Audit log").
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_events" FROM PUBLIC;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON "audit_events" FROM %I', current_user);
END
$$;
