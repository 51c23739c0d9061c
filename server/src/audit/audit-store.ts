/**
 * Writing and checking the audit_events table. Writers append in one transaction that first takes a
 * transaction-scoped advisory lock, so every process (API instances, the admin CLI) extends the chain from its
 * true head, one at a time; the unique index on prev_hash refuses a fork even if a writer skipped the lock.
 */
import { asc, desc, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { auditEvents } from '../db/schema.js';
import { chainHash, GENESIS_HASH, type AuditEventFields } from './hash-chain.js';

/** The advisory lock key of the audit chain (any constant no other part of the app uses). */
const AUDIT_CHAIN_LOCK = 0x41_55_44_49_54; // "AUDIT"

/** Appends the events in order, each chained to the one before. */
export async function appendAuditEvents(db: Database, events: AuditEventFields[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
    const [head] = await tx.select({ hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    let prevHash = head?.hash ?? GENESIS_HASH;
    const rows = events.map((e) => {
      const hash = chainHash(e, prevHash);
      const row = { ...e, prevHash, hash };
      prevHash = hash;
      return row;
    });
    // One statement: its rows take their ids in this order, which is the order of the chain.
    await tx.insert(auditEvents).values(rows);
  });
}

export type ChainReport =
  | { ok: true; count: number; headHash: string; sawExpected: boolean }
  | { ok: false; count: number; brokenAt: number; reason: 'hash_mismatch' | 'chain_mismatch' };

const PAGE = 1000;

/**
 * Walks the whole chain in id order. `hash_mismatch`: the row's fields are not what was hashed (it was changed);
 * `chain_mismatch`: its prev_hash is not the hash of the row before (a row was removed, inserted or reordered).
 * `count` is the number of rows checked before the first broken one; `sawExpected`, whether a row has the hash
 * noted down from an earlier check.
 */
export async function verifyAuditChain(db: Database, expectHash?: string): Promise<ChainReport> {
  let prevHash = GENESIS_HASH;
  let lastId = 0;
  let count = 0;
  let sawExpected = false;
  for (;;) {
    const rows = await db.select().from(auditEvents).where(gt(auditEvents.id, lastId)).orderBy(asc(auditEvents.id)).limit(PAGE);
    for (const row of rows) {
      if (row.prevHash !== prevHash) return { ok: false, count, brokenAt: row.id, reason: 'chain_mismatch' };
      if (chainHash(row, row.prevHash) !== row.hash) return { ok: false, count, brokenAt: row.id, reason: 'hash_mismatch' };
      if (row.hash === expectHash) sawExpected = true;
      prevHash = row.hash;
      lastId = row.id;
      count++;
    }
    if (rows.length < PAGE) return { ok: true, count, headHash: prevHash, sawExpected };
  }
}
