import { randomBytes } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../admin/commands.js';
import { auditEvents } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { verifyAuditLogCommand } from './admin-commands.js';
import { auditKeyOf, type AuditKeys } from './audit-key.js';
import { appendAuditEvents, verifyAuditChain, type AuditRow } from './audit-store.js';
import { GENESIS_HASH, keyedHash, legacyHash, type AuditEventFields } from './hash-chain.js';

let t: TestApp;
let keys: AuditKeys;
beforeAll(async () => {
  t = await createTestApp();
  keys = t.app.auditLog.keys;
});
afterAll(() => t.close());

const event = (n: number, over: Partial<AuditEventFields> = {}): AuditEventFields => ({
  occurredAt: new Date(Date.UTC(2026, 10, 23, 10, 0, 0, n)),
  actorUserId: '8f0c5a4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f',
  actorOrganizationId: null,
  actorKind: 'user',
  action: 'read',
  resourceType: 'consultation_session',
  resourceId: `${n}`,
  extraIds: { space: 'b', audio: 'a' },
  outcome: 'success',
  statusCode: 200,
  clientAddress: '10.0.0.1',
  userAgent: 'UA',
  ...over,
});

const rows = () => t.ctx.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
const verify = () => verifyAuditChain(t.ctx.db, keys);
const verifyCommand = () => verifyAuditLogCommand(t.ctx.db, keys, undefined, (message) => new UsageError(message));

/** What someone with the table owner's rights can do: switch the guard off, change rows, switch it back on. */
async function asOwner(change: () => Promise<unknown>) {
  await t.ctx.db.execute(sql`alter table audit_events disable trigger user`);
  try {
    await change();
  } finally {
    await t.ctx.db.execute(sql`alter table audit_events enable trigger user`);
  }
}
const emptyLog = () => asOwner(() => t.ctx.db.execute(sql`delete from audit_events`));

/** Rewrites rows from `from` on: each gets the hash `hashOf` gives it, chained to the row before. */
async function rechain(all: AuditRow[], from: number, hashOf: (row: AuditRow, prevHash: string) => { hash: string; version: number; keyId: string | null }) {
  await asOwner(async () => {
    let prev = all.filter((r) => r.id < from).at(-1)?.hash ?? GENESIS_HASH;
    // Two steps, so the unique index on prev_hash never sees two rows with the same one.
    for (const r of all.filter((r) => r.id >= from)) await t.ctx.db.execute(sql`update audit_events set prev_hash = ${`tmp-${r.id}`} where id = ${r.id}`);
    for (const r of all.filter((r) => r.id >= from)) {
      const next = hashOf(r, prev);
      await t.ctx.db.execute(
        sql`update audit_events set prev_hash = ${prev}, hash = ${next.hash}, hash_version = ${next.version}, hash_key_id = ${next.keyId} where id = ${r.id}`,
      );
      prev = next.hash;
    }
  });
}

describe('the hash chain', () => {
  it('hashes the same event the same way whatever the order of its related ids, and differently for any other change', () => {
    const key = keys.current();
    const place = { id: 1, prevHash: GENESIS_HASH };
    const base = keyedHash(event(1), place, key);
    expect(keyedHash(event(1, { extraIds: { audio: 'a', space: 'b' } }), place, key)).toBe(base);
    for (const change of [
      { outcome: 'failure' as const },
      { outcome: 'client_disconnected' as const },
      { statusCode: 404 },
      { resourceId: null },
      { clientAddress: '10.0.0.2' },
      { extraIds: { space: 'b' } },
      { occurredAt: new Date(Date.UTC(2026, 10, 23, 10, 0, 0, 2)) },
    ]) {
      expect(keyedHash(event(1, change), place, key)).not.toBe(base);
    }
    expect(keyedHash(event(1), { ...place, prevHash: 'f'.repeat(64) }, key)).not.toBe(base);
    expect(keyedHash(event(1), { ...place, id: 2 }, key)).not.toBe(base);
    // Another key, or none: another hash.
    expect(keyedHash(event(1), place, auditKeyOf(randomBytes(32)))).not.toBe(base);
    expect(legacyHash(event(1), GENESIS_HASH)).not.toBe(base);
  });

  it('stays one unbroken chain, with ids that have no gaps, when many writers append at the same time', async () => {
    await emptyLog();
    // On PostgreSQL these run on several pooled connections; the advisory lock orders them.
    await Promise.all(Array.from({ length: 25 }, (_, i) => appendAuditEvents(t.ctx.db, keys, [event(i * 2), event(i * 2 + 1)])));
    for (let i = 0; i < 40; i++) t.app.auditLog.record(event(100 + i));
    await t.app.auditLog.flush();
    const all = await rows();
    expect(all).toHaveLength(90);
    expect(new Set(all.map((r) => r.prevHash)).size).toBe(90);
    expect(all[0]!.prevHash).toBe(GENESIS_HASH);
    const first = all[0]!.id;
    expect(all.map((r) => r.id)).toEqual(all.map((_, i) => first + i));
    expect(all.every((r) => r.hashVersion === 2 && r.hashKeyId === keys.current().id)).toBe(true);
    const report = await verifyAuditChain(t.ctx.db, keys, all[40]!.hash);
    expect(report).toEqual({ ok: true, count: 90, legacy: 0, headHash: all.at(-1)!.hash, sawExpected: true });
  });

  it('leaves no gap when a write fails and is rolled back (ids from a sequence would have been used up)', async () => {
    await emptyLog();
    await appendAuditEvents(t.ctx.db, keys, [event(1)]);
    // A write that fails after its rows were formed, as a lost connection or a failed commit would.
    await t.ctx.db.execute(sql`create function audit_test_fail() returns trigger language plpgsql as $$ begin raise exception 'failed after insert'; end $$`);
    await t.ctx.db.execute(
      sql`create trigger audit_test_fail after insert on audit_events for each row when (new.user_agent = 'fail') execute function audit_test_fail()`,
    );
    try {
      await expect(appendAuditEvents(t.ctx.db, keys, [event(2), event(3, { userAgent: 'fail' })])).rejects.toThrow();
    } finally {
      await t.ctx.db.execute(sql`drop trigger audit_test_fail on audit_events`);
      await t.ctx.db.execute(sql`drop function audit_test_fail()`);
    }
    await appendAuditEvents(t.ctx.db, keys, [event(4)]);
    const all = await rows();
    expect(all.map((r) => r.resourceId)).toEqual(['1', '4']);
    expect(all[1]!.id).toBe(all[0]!.id + 1);
    expect((await verify()).ok).toBe(true);
  });
});

describe('tampering by someone with the database but without the audit key', () => {
  beforeEach(async () => {
    await emptyLog();
    await appendAuditEvents(
      t.ctx.db,
      keys,
      Array.from({ length: 6 }, (_, i) => event(i + 1)),
    );
  });

  it('removing an event and recomputing the later hashes with plain SHA-256 is detected', async () => {
    const all = await rows();
    const victim = all[2]!;
    await asOwner(() => t.ctx.db.execute(sql`delete from audit_events where id = ${victim.id}`));
    const left = all.filter((r) => r.id !== victim.id);
    // Still marked as keyed: the hash is not the keyed one.
    await rechain(left, victim.id + 1, (r, prev) => ({ hash: legacyHash(r, prev), version: 2, keyId: r.hashKeyId }));
    expect(await verify()).toMatchObject({ ok: false, reason: 'id_gap', brokenAt: victim.id + 1, count: 2 });
    // Renumbered too, so no id is missing: the keyed hash covers the id and the link.
    await asOwner(async () => {
      for (const r of left.filter((r) => r.id > victim.id)) await t.ctx.db.execute(sql`update audit_events set id = ${r.id - 1} where id = ${r.id}`);
    });
    expect(await verify()).toMatchObject({ ok: false, reason: 'hash_mismatch', brokenAt: victim.id, count: 2 });
    // Rewritten as unkeyed (version 1) events after keyed ones: no writer makes that.
    const renumbered = await rows();
    await rechain(renumbered, victim.id, (r, prev) => ({ hash: legacyHash(r, prev), version: 1, keyId: null }));
    expect(await verify()).toMatchObject({ ok: false, reason: 'legacy_after_keyed', brokenAt: victim.id });
    await expect(verifyCommand()).rejects.toThrow(`The audit log is broken at event ${victim.id}: it carries an unkeyed hash after keyed ones`);
  });

  it('rewriting the whole log as unkeyed events is refused by verify-audit-log', async () => {
    const all = await rows();
    await asOwner(() => t.ctx.db.execute(sql`delete from audit_events where id = ${all[2]!.id}`));
    const left = all.filter((r) => r.id !== all[2]!.id);
    await rechain(left, left[0]!.id, (r, prev) => ({ hash: legacyHash(r, prev), version: 1, keyId: null }));
    // Each link holds (unkeyed rows took sequence ids, whose gaps mean nothing)…
    expect(await verify()).toMatchObject({ ok: true, count: 5, legacy: 5 });
    // …but nothing sealed with the key vouches for them.
    await expect(verifyCommand()).rejects.toThrow("The audit log's 5 events all have unkeyed hashes, and no event sealed with the audit key follows them");
  });

  it('a hash forged with another key is detected, whichever key id the row names', async () => {
    const all = await rows();
    const forger = auditKeyOf(randomBytes(32));
    await asOwner(() => t.ctx.db.execute(sql`update audit_events set status_code = 404, outcome = 'failure' where id = ${all[3]!.id}`));
    const changed = await rows();
    // Under the real key's id: the hashes do not check out.
    await rechain(changed, all[3]!.id, (r, prev) => ({
      hash: keyedHash(r, { id: r.id, prevHash: prev }, { ...forger, id: r.hashKeyId! }),
      version: 2,
      keyId: r.hashKeyId,
    }));
    expect(await verify()).toMatchObject({ ok: false, reason: 'hash_mismatch', brokenAt: all[3]!.id, count: 3 });
    // Under the forger's own key id: a key this server does not have.
    await rechain(changed, all[3]!.id, (r, prev) => ({ hash: keyedHash(r, { id: r.id, prevHash: prev }, forger), version: 2, keyId: forger.id }));
    expect(await verify()).toMatchObject({ ok: false, reason: 'unknown_key', keyId: forger.id, brokenAt: all[3]!.id });
    await expect(verifyCommand()).rejects.toThrow(`it was sealed with audit key ${forger.id}, which this server does not have`);
  });
});

describe('events written before the chain had a key', () => {
  it('still verify, vouched for by the keyed events after them', async () => {
    await emptyLog();
    // As the first version of the log wrote them: plain SHA-256, ids from the sequence (which may skip).
    let prevHash = GENESIS_HASH;
    for (const [i, id] of [3, 4, 7].entries()) {
      const e = event(i + 1);
      const hash = legacyHash(e, prevHash);
      await t.ctx.db.insert(auditEvents).values({ ...e, id, prevHash, hash });
      prevHash = hash;
    }
    expect((await rows()).map((r) => [r.id, r.hashVersion, r.hashKeyId])).toEqual([
      [3, 1, null],
      [4, 1, null],
      [7, 1, null],
    ]);
    await expect(verifyCommand()).rejects.toThrow('no event sealed with the audit key follows them');
    await appendAuditEvents(t.ctx.db, keys, [event(10), event(11)]);
    const all = await rows();
    expect(all.slice(3).map((r) => [r.id, r.hashVersion])).toEqual([
      [8, 2],
      [9, 2],
    ]);
    expect(await verify()).toEqual({ ok: true, count: 5, legacy: 3, headHash: all.at(-1)!.hash, sawExpected: false });
    expect((await verifyCommand())[0]).toBe(
      'The audit log is intact: 5 events, each chained to the one before (the first 3 from before the chain had a key, vouched for by the keyed events after them).',
    );

    // A changed unkeyed event is still found, and so is one recomputed with plain SHA-256: the keyed event after
    // it covers its hash.
    await asOwner(() => t.ctx.db.execute(sql`update audit_events set status_code = 500 where id = 4`));
    expect(await verify()).toMatchObject({ ok: false, reason: 'hash_mismatch', brokenAt: 4 });
    await rechain(await rows(), 4, (r, prev) =>
      r.hashVersion === 1 ? { hash: legacyHash(r, prev), version: 1, keyId: null } : { hash: r.hash, version: 2, keyId: r.hashKeyId },
    );
    expect(await verify()).toMatchObject({ ok: false, reason: 'hash_mismatch', brokenAt: 8 });
  });
});
