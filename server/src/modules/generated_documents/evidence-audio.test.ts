import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioChunks } from '../../db/schema.js';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cn-evidence-audio-'));
const parts = [makeWebm(dir, 'a', 1, 440), makeWebm(dir, 'b', 2, 660)];
/** What was "said" in each part, told apart by the part's size. */
const said = new Map([
  [parts[0]!.length, 'Good morning, please sit down.'],
  [parts[1]!.length, 'I have had chest pain for two days. It gets worse when I climb stairs.'],
]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async (input) => said.get(statSync(input.filePath).size) ?? '' } },
  );
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function recordedConsultation(saveAudios: boolean) {
  const u = await createUser(t, { saveAudios });
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  for (const [order, data] of parts.entries()) {
    const m = multipartAudio(order, data);
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
        .statusCode,
    ).toBe(201);
  }
  expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers, payload: { parts: 2 } })).statusCode).toBe(200);
  for (let i = 0; i < 200; i++) {
    const doc = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document;
    if (doc && doc.status !== 'generating') {
      const chunks = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
      return { doc, chunks: new Map(chunks.map((c) => [c.order, c.id])) };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const rows = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
  throw new Error(`document not written: ${JSON.stringify(rows.map((r) => [r.order, r.transcriptionStatus, r.transcript]))}`);
}

type Sentence = { text: string; spans: { quote: string; audio?: { id: string; offset_ms: number } }[] };

describe('a document sentence leads to the moment it was said', () => {
  it('names the audio part and about where in it, while the audio is kept', async () => {
    const { doc, chunks } = await recordedConsultation(true);
    const sentences = doc.evidence.sentences as Sentence[];
    const pain = sentences.find((s) => /chest pain/.test(s.text));
    expect(pain?.spans[0]?.audio).toEqual({ id: chunks.get(1), offset_ms: 0 });
    // The second sentence of the part is said later in it: about half-way through its 2 s.
    const stairs = sentences.find((s) => /stairs/.test(s.text));
    expect(stairs?.spans[0]?.audio?.id).toBe(chunks.get(1));
    expect(stairs!.spans[0]!.audio!.offset_ms).toBeGreaterThan(500);
    expect(stairs!.spans[0]!.audio!.offset_ms).toBeLessThan(2000);
  });

  it('leaves the audio out when it is not kept', async () => {
    const { doc } = await recordedConsultation(false);
    const sentences = doc.evidence.sentences as Sentence[];
    expect(sentences.some((s) => /chest pain/.test(s.text) && s.spans.length === 1)).toBe(true);
    expect(sentences.flatMap((s) => s.spans).filter((span) => span.audio)).toEqual([]);
  });
});
