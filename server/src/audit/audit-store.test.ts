import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { appendAuditEvents, verifyAuditChain } from './audit-store.js';
import { chainHash, GENESIS_HASH, type AuditEventFields } from './hash-chain.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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

describe('the hash chain', () => {
  it('hashes the same event the same way whatever the order of its related ids, and differently for any other change', () => {
    const base = chainHash(event(1), GENESIS_HASH);
    expect(chainHash(event(1, { extraIds: { audio: 'a', space: 'b' } }), GENESIS_HASH)).toBe(base);
    for (const change of [{ outcome: 'failure' as const }, { statusCode: 404 }, { resourceId: null }, { clientAddress: '10.0.0.2' }, { extraIds: { space: 'b' } }, { occurredAt: new Date(Date.UTC(2026, 10, 23, 10, 0, 0, 2)) }]) {
      expect(chainHash(event(1, change), GENESIS_HASH)).not.toBe(base);
    }
    expect(chainHash(event(1), 'f'.repeat(64))).not.toBe(base);
  });

  it('stays one unbroken chain when many writers append at the same time', async () => {
    // On PostgreSQL these run on several pooled connections; the advisory lock orders them.
    await Promise.all(Array.from({ length: 25 }, (_, i) => appendAuditEvents(t.ctx.db, [event(i * 2), event(i * 2 + 1)])));
    for (let i = 0; i < 40; i++) t.app.auditLog.record(event(100 + i));
    await t.app.auditLog.flush();
    const rows = await t.ctx.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
    expect(rows).toHaveLength(90);
    expect(new Set(rows.map((r) => r.prevHash)).size).toBe(90);
    expect(rows[0]!.prevHash).toBe(GENESIS_HASH);
    const report = await verifyAuditChain(t.ctx.db, rows[40]!.hash);
    expect(report).toEqual({ ok: true, count: 90, headHash: rows.at(-1)!.hash, sawExpected: true });
  });
});
