import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import { generatedDocuments } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, usingPostgres, type TestApp } from '../../test-support/test-app.js';
import { documentTopic } from './live-documents.js';
import { followRemotely } from './remote-follow.js';

const WORDS = Array.from({ length: 30 }, (_, i) => `word${i} `);
const FULL = WORDS.join('');
/** Writes a word every 40 ms: about 1.2 s a document, long enough to be followed while it grows. */
const slow: TextGenerator = {
  info: { engine: 'composer', usesAi: false },
  async *write() {
    for (const w of WORDS) {
      await new Promise((r) => setTimeout(r, 40));
      yield w;
    }
  },
};

let writer: TestApp;
beforeAll(async () => {
  writer = await createTestApp({}, { textGenerator: slow });
});
afterAll(() => writer.close());

async function startWriting(t: TestApp) {
  const u = await createUser(t);
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'Chest pain.' } });
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
  const [row] = await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id));
  return { headers, id, docId: row!.id };
}

function collect(ctx: TestApp['ctx'], docId: string) {
  let text = '';
  return new Promise<{ text: string; ok: boolean | 'restarted' }>((resolve) => {
    followRemotely(ctx, docId, { delta: (d) => (text += d), end: (ok) => resolve({ text, ok }) });
  });
}

describe('following a document written elsewhere', () => {
  it('gets the whole text, in order and once, from the first word or from half-way', async () => {
    const early = await startWriting(writer);
    const fromStart = collect(writer.ctx, early.docId);
    await new Promise((r) => setTimeout(r, 500));
    const fromMiddle = collect(writer.ctx, early.docId);
    expect(await fromStart).toEqual({ text: FULL, ok: true });
    expect(await fromMiddle).toEqual({ text: FULL, ok: true });
  });

  it('lets go of a reader when another writer starts the version again, instead of joining two drafts', async () => {
    const doc = await startWriting(writer);
    const followed = collect(writer.ctx, doc.docId);
    await new Promise((r) => setTimeout(r, 300));
    await writer.ctx.events.publish(documentTopic(doc.docId), { type: 'delta', epoch: 1, offset: 0, text: 'another draft' });
    const { text, ok } = await followed;
    expect(ok).toBe('restarted');
    expect(text).not.toContain('another draft');
    expect(FULL.startsWith(text)).toBe(true);
  });

  it('ends at once for a document already written', async () => {
    const done = await startWriting(writer);
    await collect(writer.ctx, done.docId);
    expect(await collect(writer.ctx, done.docId)).toEqual({ text: FULL, ok: true });
  });
});

describe.runIf(usingPostgres())('two API processes on one PostgreSQL', () => {
  it('a browser on the second process follows the text the first one writes, live', async () => {
    const reader = await createTestApp({}, { sharingDatabaseOf: writer });
    try {
      const { headers, id } = await startWriting(writer);
      const url = `/v1/consultation_sessions/${id}/generated_documents/main/stream`;
      const live = reader.app.inject({ method: 'GET', url, headers });
      await new Promise((r) => setTimeout(r, 600));
      const late = reader.app.inject({ method: 'GET', url, headers });
      for (const res of [await live, await late]) {
        const deltas = [...res.body.matchAll(/event: delta\ndata: (.*)\n/g)].map((m) => (JSON.parse(m[1]!) as { text: string }).text);
        expect(deltas.join('')).toBe(FULL);
        expect(res.body.trimEnd().endsWith('event: done\ndata: {}')).toBe(true);
      }
      // Followed as it grew, not read once at the end.
      const first = await live;
      expect([...first.body.matchAll(/event: delta/g)].length).toBeGreaterThan(3);
    } finally {
      await reader.close();
    }
  });
});
