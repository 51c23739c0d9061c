/**
 * Documents whose writer died are taken over by a live process once their lease has passed; a live writer keeps
 * its lease. The two-process cases need PostgreSQL (two apps on one database); PGlite is one process's alone.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import { creditLedger, generatedDocuments } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, usingPostgres, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';
import { grantCredits } from '../credits/service.js';
import { MAX_TAKEOVERS, takeOverGenerations } from './takeover.js';

/** An AI-like engine named for its process; it takes `delayMs` before it writes, to outlast a lease. */
function engine(name: string, timing: { delayMs: number }): TextGenerator {
  return {
    info: { engine: 'openai', model: 'test', usesAi: true },
    async *write(req) {
      await new Promise((r) => setTimeout(r, timing.delayMs));
      yield `# ${req.documentKind}\n\nwritten by ${name}: ${req.transcript}`;
    },
  };
}

const fast = { GENERATION_LEASE_SECONDS: '0.6', GENERATION_SWEEP_SECONDS: '0.2' };

async function finishedSession(t: TestApp) {
  const u = await createUser(t);
  await grantCredits(t.ctx.db, { ownerUserId: u.id }, 10);
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'Knee pain after a fall.' } });
  return { user: u, headers, id };
}

const versions = (t: TestApp, sessionId: string) =>
  t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, sessionId)).orderBy(generatedDocuments.version);
const ledgerOf = (t: TestApp, userId: string) => t.ctx.db.select().from(creditLedger).where(eq(creditLedger.ownerUserId, userId));

/** A version left `generating` by a process that died: its lease passed a while ago, its debit stands. */
async function orphan(t: TestApp, sessionId: string, userId: string, takeovers = 0) {
  const [row] = await t.ctx.db
    .insert(generatedDocuments)
    .values({
      sessionId,
      documentKey: 'consultation_notes',
      version: 1,
      status: 'generating',
      engine: 'openai',
      finishTriggered: true,
      takeovers,
      leaseUntil: sql`now() - interval '5 seconds'`,
    })
    .returning();
  await t.ctx.db.insert(creditLedger).values({ ownerUserId: userId, amount: -1, reason: 'generation', actorUserId: userId, documentId: row!.id });
  return row!;
}

describe('one process', () => {
  let t: TestApp;
  const timing = { delayMs: 0 };
  beforeAll(async () => {
    t = await createTestApp(fast, { textGenerator: engine('this process', timing) });
  });
  afterAll(() => t?.close());

  it('a version whose lease passed is written again from the start, keeping its one debit', async () => {
    const { user, id } = await finishedSession(t);
    const row = await orphan(t, id, user.id);
    const [done] = await until(
      'taken over',
      () => versions(t, id),
      (v) => v[0]?.status === 'done',
    );
    expect(done).toMatchObject({ id: row.id, takeovers: 1, leaseUntil: null });
    expect(done!.text).toContain('written by this process: Knee pain after a fall.');
    const ledger = await ledgerOf(t, user.id);
    expect(ledger.filter((l) => l.amount < 0)).toHaveLength(1);
    expect(ledger.filter((l) => l.reason === 'refund')).toHaveLength(0);
  });

  it(`after ${MAX_TAKEOVERS} takeovers the version is failed and refunded`, async () => {
    const { user, id } = await finishedSession(t);
    const row = await orphan(t, id, user.id, MAX_TAKEOVERS);
    const [failed] = await until(
      'given up',
      () => versions(t, id),
      (v) => v[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ id: row.id, takeovers: MAX_TAKEOVERS + 1 });
    await until(
      'refunded',
      () => ledgerOf(t, user.id),
      (l) => l.some((e) => e.reason === 'refund' && e.documentId === row.id),
    );
  });

  it('at start with the embedded database every generating version is taken over, lease or not', async () => {
    const { user, id } = await finishedSession(t);
    const row = await orphan(t, id, user.id);
    // As if its lease had just been renewed by the process that ran before this one.
    await t.ctx.db.update(generatedDocuments).set({ leaseUntil: sql`now() + interval '1 hour'` }).where(eq(generatedDocuments.id, row.id));
    expect(await takeOverGenerations(t.ctx, { all: true })).toBeGreaterThanOrEqual(1);
    const [done] = await until(
      'taken over',
      () => versions(t, id),
      (v) => v[0]?.status === 'done',
    );
    expect(done).toMatchObject({ id: row.id, takeovers: 1 });
  });

  it('a live writer renews its lease: a slow document is not taken from it', async () => {
    timing.delayMs = 2_000;
    try {
      const { user, headers, id } = await finishedSession(t);
      await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
      const [done] = await until(
        'written',
        () => versions(t, id),
        (v) => v[0]?.status === 'done',
      );
      expect(done!.takeovers).toBe(0);
      expect((await ledgerOf(t, user.id)).filter((l) => l.amount < 0)).toHaveLength(1);
    } finally {
      timing.delayMs = 0;
    }
  });
});

// Two API processes need a database both can open: PGlite lives inside one process, so only PostgreSQL runs these.
describe.skipIf(!usingPostgres())('two processes on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  const timingA = { delayMs: 0 };
  beforeAll(async () => {
    // A is the process that stalls or dies: it does not sweep, so every takeover is B's.
    a = await createTestApp({ ...fast, GENERATION_SWEEP_SECONDS: '0' }, { textGenerator: engine('A', timingA) });
    b = await createTestApp(fast, { textGenerator: engine('B', { delayMs: 0 }), sharingDatabaseOf: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('finishing on both at once writes one document with one debit', async () => {
    for (let round = 0; round < 5; round++) {
      const { user, headers, id } = await finishedSession(a);
      const url = `/v1/consultation_sessions/${id}/finish`;
      const answers = await Promise.all([
        a.app.inject({ method: 'PUT', url, headers, payload: { parts: 0 } }),
        b.app.inject({ method: 'PUT', url, headers, payload: { parts: 0 } }),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const all = await until(
        'written',
        () => versions(a, id),
        (v) => v.length > 0 && v.every((d) => d.status === 'done'),
      );
      expect(all, `round ${round}`).toHaveLength(1);
      expect(
        (await ledgerOf(a, user.id)).filter((l) => l.amount < 0),
        `round ${round}`,
      ).toHaveLength(1);
    }
  });

  it('a version whose writer stalled is taken over by the other process, and the stalled writer saves nothing', async () => {
    timingA.delayMs = 2_500;
    try {
      const { user, headers, id } = await finishedSession(a);
      // Started on A; A's writer then hangs past its lease (as a killed or frozen process would).
      a.ctx.config.generationLeaseMs = 60_000;
      await a.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
      const [started] = await versions(a, id);
      await a.ctx.db.update(generatedDocuments).set({ leaseUntil: sql`now() - interval '1 second'` }).where(eq(generatedDocuments.id, started!.id));
      const [done] = await until(
        'taken over',
        () => versions(b, id),
        (v) => v[0]?.status === 'done',
        { ms: 5_000 },
      );
      expect(done).toMatchObject({ id: started!.id, takeovers: 1 });
      expect(done!.text).toContain('written by B');
      // A's writer finishes later and finds the version is no longer its own.
      await new Promise((r) => setTimeout(r, 3_000));
      const [after] = await versions(a, id);
      expect(after!.text).toContain('written by B');
      expect((await ledgerOf(a, user.id)).filter((l) => l.amount < 0)).toHaveLength(1);
      expect((await ledgerOf(a, user.id)).filter((l) => l.reason === 'refund')).toHaveLength(0);
    } finally {
      timingA.delayMs = 0;
      a.ctx.config.generationLeaseMs = 600;
    }
  });

  it('a version left by a process that died is taken over within the lease window', async () => {
    const { user, id } = await finishedSession(a);
    const row = await orphan(b, id, user.id);
    const [done] = await until(
      'taken over',
      () => versions(a, id),
      (v) => v[0]?.status === 'done',
      { ms: 3_000 },
    );
    expect(done).toMatchObject({ id: row.id, takeovers: 1 });
    expect(
      await a.ctx.db
        .select()
        .from(generatedDocuments)
        .where(and(eq(generatedDocuments.sessionId, id), eq(generatedDocuments.status, 'generating'))),
    ).toHaveLength(0);
  });
});
