/**
 * The consultation's parts kept between polls (parts-cache.ts): read again after every change to what the
 * transcript is made of, in this process or another, and never otherwise.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSequences } from '../../admin/backup-catalog.js';
import { audioChunks } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { createPartsCache, IDLE_MS } from './parts-cache.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function consultation(parts: { text: string | null; status: string }[]) {
  const u = await createUser(t);
  const headers = bearer(await login(t, u.email, u.password));
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.ctx.db.insert(audioChunks).values(
    parts.map((p, order) => ({
      sessionId: id,
      order,
      blobKey: `k-${id}-${order}`,
      mimeType: 'audio/webm',
      sizeBytes: 10,
      durationMs: 5000,
      transcript: p.text,
      transcriptionStatus: p.status,
    })),
  );
  const progress = async () =>
    (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress`, headers })).json().consultation_progress as {
      transcription: { text: string };
      transcription_status: string;
      recorded_ms: number;
    };
  return { id, progress };
}

const part = (id: string, order: number) => and(eq(audioChunks.sessionId, id), eq(audioChunks.order, order));

describe('the parts kept between polls', () => {
  it('are not read again while nothing changed, a lock renewal included', async () => {
    const { id } = await consultation([
      { text: 'Dry cough.', status: 'done' },
      { text: null, status: 'processing' },
    ]);
    const cache = createPartsCache();
    const first = await cache.parts(t.ctx.db, id);
    expect(await cache.parts(t.ctx.db, id)).toBe(first);
    await t.ctx.db.update(audioChunks).set({ lockedUntil: sql`now() + interval '60 seconds'` }).where(part(id, 1));
    expect(await cache.parts(t.ctx.db, id)).toBe(first);
  });

  it('are read again after each change to what the transcript is made of', async () => {
    const { id } = await consultation([
      { text: 'Dry cough.', status: 'done' },
      { text: null, status: 'pending' },
    ]);
    const cache = createPartsCache();
    let last = await cache.parts(t.ctx.db, id);
    const changes = [
      () => t.ctx.db.update(audioChunks).set({ transcriptionStatus: 'processing' }).where(part(id, 1)),
      () => t.ctx.db.update(audioChunks).set({ transcript: 'No fever.', transcriptionStatus: 'done' }).where(part(id, 1)),
      () => t.ctx.db.update(audioChunks).set({ durationMs: 4800 }).where(part(id, 0)),
      () =>
        t.ctx.db
          .update(audioChunks)
          .set({ speakerTurns: [{ speaker: 'clinician', label: 'Clinician', text: 'Dry cough.' }] })
          .where(part(id, 0)),
      () =>
        t.ctx.db
          .insert(audioChunks)
          .values({ sessionId: id, order: 2, blobKey: `k-${id}-2`, mimeType: 'audio/webm', sizeBytes: 10, transcriptionStatus: 'pending' }),
      () => t.ctx.db.delete(audioChunks).where(part(id, 2)),
      // The same text written again is still a change of the row: read again rather than trusted.
      () => t.ctx.db.update(audioChunks).set({ transcript: 'No fever.' }).where(part(id, 1)),
    ];
    for (const change of changes) {
      await change();
      const now = await cache.parts(t.ctx.db, id);
      expect(now).not.toBe(last);
      last = now;
    }
    expect(last.map((p) => p.transcript)).toEqual(['Dry cough.', 'No fever.']);
  });

  it('keep only the most recently read consultations', async () => {
    const a = await consultation([{ text: 'A.', status: 'done' }]);
    const b = await consultation([{ text: 'B.', status: 'done' }]);
    const cache = createPartsCache(1);
    const first = await cache.parts(t.ctx.db, a.id);
    await cache.parts(t.ctx.db, b.id);
    expect(await cache.parts(t.ctx.db, a.id)).not.toBe(first);
  });

  it('let go of a consultation no screen has read for a while', async () => {
    const a = await consultation([{ text: 'A.', status: 'done' }]);
    const b = await consultation([{ text: 'B.', status: 'done' }]);
    let clock = 1_000_000;
    const cache = createPartsCache(10, () => clock);
    const first = await cache.parts(t.ctx.db, a.id);
    clock += IDLE_MS - 1;
    expect(await cache.parts(t.ctx.db, a.id)).toBe(first);
    clock += IDLE_MS;
    // Any read lets go of what was idle that long: b's read drops a's parts.
    await cache.parts(t.ctx.db, b.id);
    expect(await cache.parts(t.ctx.db, a.id)).not.toBe(first);
  });

  it('keep no more transcript text than they have room for', async () => {
    const a = await consultation([{ text: 'Dry cough.', status: 'done' }]);
    const b = await consultation([{ text: 'No fever.', status: 'done' }]);
    const big = await consultation([{ text: 'x'.repeat(100), status: 'done' }]);
    const cache = createPartsCache(10, undefined, 40);
    const first = await cache.parts(t.ctx.db, a.id);
    expect(await cache.parts(t.ctx.db, a.id)).toBe(first);
    // 20 + 18 characters fit; then a third would not, and the least recently read goes.
    const second = await cache.parts(t.ctx.db, b.id);
    expect(await cache.parts(t.ctx.db, a.id)).toBe(first);
    await cache.parts(t.ctx.db, a.id);
    const extra = await consultation([{ text: 'Lungs.', status: 'done' }]);
    await cache.parts(t.ctx.db, extra.id);
    expect(await cache.parts(t.ctx.db, b.id)).not.toBe(second);
    // Larger than all the room: answered every time, never kept.
    const once = await cache.parts(t.ctx.db, big.id);
    expect(once.map((p) => p.transcript)).toEqual(['x'.repeat(100)]);
    expect(await cache.parts(t.ctx.db, big.id)).not.toBe(once);
  });

  it('draw revisions above any restored from a backup', async () => {
    const { id } = await consultation([{ text: 'Dry cough.', status: 'done' }]);
    const restored = 10_000_000;
    await t.ctx.db.update(audioChunks).set({ revision: restored }).where(part(id, 0));
    await resetSequences(t.ctx.db);
    await t.ctx.db
      .insert(audioChunks)
      .values({ sessionId: id, order: 1, blobKey: `k-${id}-1`, mimeType: 'audio/webm', sizeBytes: 10, transcriptionStatus: 'pending' });
    await t.ctx.db.update(audioChunks).set({ transcriptionStatus: 'processing' }).where(part(id, 0));
    const revisions = (await t.ctx.db.select({ revision: audioChunks.revision }).from(audioChunks).where(eq(audioChunks.sessionId, id))).map(
      (r) => r.revision!,
    );
    expect(Math.min(...revisions)).toBeGreaterThan(restored);
  });

  it('give the poll the words a worker wrote since the last one', async () => {
    const { id, progress } = await consultation([
      { text: 'Dry cough for three days.', status: 'done' },
      { text: null, status: 'processing' },
    ]);
    expect(await progress()).toMatchObject({ transcription: { text: 'Dry cough for three days.' }, transcription_status: 'processing', recorded_ms: 10_000 });
    expect((await progress()).transcription.text).toBe('Dry cough for three days.');
    await t.ctx.db.update(audioChunks).set({ transcript: 'No fever.', transcriptionStatus: 'done', durationMs: 4000 }).where(part(id, 1));
    expect(await progress()).toMatchObject({ transcription: { text: 'Dry cough for three days. No fever.' }, transcription_status: 'done', recorded_ms: 9000 });
  });

  // Two writers at once need two connections: PostgreSQL only (PGlite has one).
  it.skipIf(!process.env.TEST_DATABASE_URL)('see a change committed after a later one (the revisions are not in commit order)', async () => {
    const { id } = await consultation([
      { text: null, status: 'processing' },
      { text: null, status: 'processing' },
    ]);
    const cache = createPartsCache();
    await t.ctx.db.transaction(async (tx) => {
      // This part's revision is drawn now, but the change is seen only at the commit below...
      await tx.update(audioChunks).set({ transcript: 'Dry cough.', transcriptionStatus: 'done' }).where(part(id, 0));
      // ...after another writer's change, with a higher revision, was committed and read.
      await t.ctx.db.update(audioChunks).set({ transcript: 'No fever.', transcriptionStatus: 'done' }).where(part(id, 1));
      expect((await cache.parts(t.ctx.db, id)).map((p) => p.transcript)).toEqual([null, 'No fever.']);
    });
    expect((await cache.parts(t.ctx.db, id)).map((p) => p.transcript)).toEqual(['Dry cough.', 'No fever.']);
  });
});
