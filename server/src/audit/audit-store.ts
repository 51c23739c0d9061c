/**
 * Writing and checking the audit_events table. Writers append in one transaction that first takes a
 * transaction-scoped advisory lock, so every process (API instances, the admin CLI) extends the chain from its
 * true head, one at a time; the unique index on prev_hash refuses a fork even if a writer skipped the lock.
 *
 * Under that lock the writer also gives each row its id (the head's id plus one), rather than taking it from the
 * table's sequence: a sequence value is used up by an insert that is rolled back (a batch the database refused,
 * retried later) and PostgreSQL skips up to 32 values after a crash, so sequence ids have gaps that mean nothing.
 * Ids given under the lock have none, and keyed rows hash their id, so a missing id is a removed row. Rows written
 * before the chain had a key (version 1) took sequence ids: gaps among them are not checked.
 */
import { asc, desc, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { auditEvents } from '../db/schema.js';
import type { AuditKeys } from './audit-key.js';
import { GENESIS_HASH, KEYED_HASH_VERSION, keyedHash, LEGACY_HASH_VERSION, legacyHash, type AuditEventFields } from './hash-chain.js';

/** The advisory lock key of the audit chain (any constant no other part of the app uses). */
const AUDIT_CHAIN_LOCK = 0x41_55_44_49_54; // "AUDIT"

export type AuditRow = typeof auditEvents.$inferSelect;

/** Appends the events in order, each chained to the one before and sealed with the current audit key. */
export async function appendAuditEvents(db: Database, keys: AuditKeys, events: AuditEventFields[]): Promise<void> {
  if (events.length === 0) return;
  const key = keys.current();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
    const [head] = await tx.select({ id: auditEvents.id, hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    let prevHash = head?.hash ?? GENESIS_HASH;
    let id = head?.id ?? 0;
    const rows = events.map((e) => {
      id++;
      const hash = keyedHash(e, { id, prevHash }, key);
      const row = { ...e, id, prevHash, hash, hashVersion: KEYED_HASH_VERSION, hashKeyId: key.id };
      prevHash = hash;
      return row;
    });
    await tx.insert(auditEvents).values(rows);
  });
}

export type ChainBreak = 'hash_mismatch' | 'chain_mismatch' | 'id_gap' | 'unknown_key' | 'legacy_after_keyed';

export type ChainReport =
  | { ok: true; count: number; legacy: number; headHash: string; sawExpected: boolean }
  | { ok: false; count: number; brokenAt: number; lastGoodId: number; reason: ChainBreak; keyId?: string };

/**
 * Checks rows pushed in id order. `hash_mismatch`: the row's fields are not what was hashed (it was changed, or its
 * hash was made without the key); `chain_mismatch`: its prev_hash is not the hash of the row before (a row was
 * removed, inserted or reordered); `id_gap`: a keyed row's id does not follow the row before (a row was removed
 * and the rest re-linked); `unknown_key`: sealed with an audit key this process does not have; `legacy_after_keyed`:
 * an unkeyed row after a keyed one, which no writer makes (keyed rows rewritten as unkeyed ones). `count` is the
 * number of rows checked before the first broken one; `legacy`, how many of them are unkeyed; `sawExpected`,
 * whether a row has the hash noted down from an earlier check.
 */
export function createChainVerifier(keys: AuditKeys, expectHash?: string) {
  let prevHash = GENESIS_HASH;
  let lastId = 0;
  let count = 0;
  let legacy = 0;
  let keyed = false;
  let sawExpected = false;
  let broken: ChainReport | undefined;
  const fail = (row: AuditRow, reason: ChainBreak, keyId?: string) => {
    broken = { ok: false, count, brokenAt: row.id, lastGoodId: lastId, reason, ...(keyId ? { keyId } : {}) };
    return false;
  };
  return {
    /** False once the chain is broken (then `report` says where). */
    push(row: AuditRow): boolean {
      if (broken) return false;
      const isKeyed = row.hashVersion === KEYED_HASH_VERSION && Boolean(row.hashKeyId);
      // First, so a removed keyed row is named as such rather than as a broken link.
      if (isKeyed && row.id !== lastId + 1) return fail(row, 'id_gap');
      if (row.prevHash !== prevHash) return fail(row, 'chain_mismatch');
      if (row.hashVersion === LEGACY_HASH_VERSION && row.hashKeyId === null) {
        if (keyed) return fail(row, 'legacy_after_keyed');
        if (legacyHash(row, row.prevHash) !== row.hash) return fail(row, 'hash_mismatch');
        legacy++;
      } else if (isKeyed && row.hashKeyId) {
        const key = keys.find(row.hashKeyId);
        if (!key) return fail(row, 'unknown_key', row.hashKeyId);
        if (keyedHash(row, { id: row.id, prevHash: row.prevHash }, key) !== row.hash) return fail(row, 'hash_mismatch');
        keyed = true;
      } else {
        return fail(row, 'hash_mismatch');
      }
      if (row.hash === expectHash) sawExpected = true;
      prevHash = row.hash;
      lastId = row.id;
      count++;
      return true;
    },
    report(): ChainReport {
      return broken ?? { ok: true, count, legacy, headHash: prevHash, sawExpected };
    },
  };
}

const PAGE = 1000;

/** Walks the whole chain in id order (see createChainVerifier). */
export async function verifyAuditChain(db: Database, keys: AuditKeys, expectHash?: string): Promise<ChainReport> {
  const verifier = createChainVerifier(keys, expectHash);
  let lastId = 0;
  for (;;) {
    const rows = await db.select().from(auditEvents).where(gt(auditEvents.id, lastId)).orderBy(asc(auditEvents.id)).limit(PAGE);
    for (const row of rows) {
      if (!verifier.push(row)) return verifier.report();
      lastId = row.id;
    }
    if (rows.length < PAGE) return verifier.report();
  }
}

const nullableText = z.string().nullable();
/** A row as PostgreSQL's row_to_json writes it (a backup's rows: admin/backup.ts). */
const jsonRow = z.object({
  id: z.number().int(),
  occurred_at: z.string(),
  actor_user_id: nullableText,
  actor_organization_id: nullableText,
  actor_kind: z.string(),
  action: z.string(),
  resource_type: z.string(),
  resource_id: nullableText,
  extra_ids: z.record(z.string(), z.string()),
  outcome: z.string(),
  status_code: z.number().int().nullable(),
  client_address: nullableText,
  user_agent: nullableText,
  prev_hash: z.string(),
  hash: z.string(),
  hash_version: z.number().int(),
  hash_key_id: nullableText,
});

/** A backup's audit row as the table's row, or undefined when it is not one. */
export function auditRowFromJson(value: unknown): AuditRow | undefined {
  const parsed = jsonRow.safeParse(value);
  if (!parsed.success) return undefined;
  const r = parsed.data;
  const occurredAt = new Date(r.occurred_at);
  if (Number.isNaN(occurredAt.getTime())) return undefined;
  return {
    id: r.id,
    occurredAt,
    actorUserId: r.actor_user_id,
    actorOrganizationId: r.actor_organization_id,
    actorKind: r.actor_kind,
    action: r.action,
    resourceType: r.resource_type,
    resourceId: r.resource_id,
    extraIds: r.extra_ids,
    outcome: r.outcome,
    statusCode: r.status_code,
    clientAddress: r.client_address,
    userAgent: r.user_agent,
    prevHash: r.prev_hash,
    hash: r.hash,
    hashVersion: r.hash_version,
    hashKeyId: r.hash_key_id,
  };
}
