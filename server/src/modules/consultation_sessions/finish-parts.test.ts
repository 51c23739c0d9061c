/**
 * PUT …/finish with { parts }: the main document waits for the parts the client recorded, within
 * PART_WAIT_SECONDS, and is started once however many finishes race.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import type { Transcriber } from '../../ai/transcriber.js';
import { audioChunks, creditLedger, generatedDocuments } from '../../db/schema.js';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';
import { grantCredits } from '../credits/service.js';
import { startGeneration } from '../generated_documents/service.js';
import { findSessionById } from './repository.js';

/** Answers "words of part N": the engine gets a decrypted copy whose path ends with the part's blob key. */
function partTranscriber(app: () => TestApp): Transcriber {
  return {
    info: { engine: 'local', languages: ['en'] },
    async transcribe({ filePath }) {
      const chunks = await app().ctx.db.select({ order: audioChunks.order, blobKey: audioChunks.blobKey }).from(audioChunks);
      const chunk = chunks.find((c) => filePath.endsWith(`/${c.blobKey}`));
      return `words of part ${chunk?.order ?? '?'}`;
    },
  };
}

/** An AI-like engine: every document it writes costs a credit. */
const ai: TextGenerator = {
  info: { engine: 'openai', model: 'test', usesAi: true },
  async *write(req) {
    yield `# ${req.documentKind}\n\n${req.transcript}`;
  },
};

let waiting: TestApp;
let bounded: TestApp;
let charged: TestApp;
let dir: string;
let tone: Buffer;
beforeAll(async () => {
  waiting = await createTestApp({}, { transcriber: partTranscriber(() => waiting) });
  bounded = await createTestApp({ PART_WAIT_SECONDS: '1.5' }, { transcriber: partTranscriber(() => bounded) });
  charged = await createTestApp({}, { textGenerator: ai });
  dir = mkdtempSync(path.join(tmpdir(), 'cn-finish-'));
  tone = makeWebm(dir, 'tone', 1);
});
afterAll(async () => {
  await Promise.all([waiting?.close(), bounded?.close(), charged?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** `language`: the clinician's; the consultation is spoken in English, the one language the test engine hears. */
async function startedSession(t: TestApp, language: 'en' | 'pt' = 'en') {
  const u = await createUser(t, { language });
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation', language: 'en' } })
  ).json().consultation_session.id;
  return { user: u, headers, id };
}
const finish = (t: TestApp, headers: Record<string, string>, id: string, payload?: unknown) =>
  t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const upload = (t: TestApp, headers: Record<string, string>, id: string, order: number) => {
  const m = multipartAudio(order, tone);
  return t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
};
const mainDoc = async (t: TestApp, headers: Record<string, string>, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document;

async function transcribed(t: TestApp, sessionId: string, count: number) {
  await t.ctx.transcriptionQueue.drain();
  await until(
    'parts transcribed',
    () => t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, sessionId)),
    (rows) => rows.filter((r) => r.transcriptionStatus === 'done').length === count,
  );
}

describe('finish with the count of recorded parts', () => {
  it('the main document waits for a part stored after the finish, and uses its words', async () => {
    const { headers, id } = await startedSession(waiting);
    await upload(waiting, headers, id, 0);
    await upload(waiting, headers, id, 1);
    await transcribed(waiting, id, 2);

    const res = await finish(waiting, headers, id, { parts: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json().consultation_session).toMatchObject({ status: 'finished', expected_parts: 3, transcription_status: 'processing' });
    // Parts 0 and 1 are transcribed, but part 2 was promised: the document keeps waiting.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await mainDoc(waiting, headers, id)).status).toBe('generating');
    const transcription = (await waiting.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers })).json();
    expect(transcription).toMatchObject({ transcription: 'words of part 0 words of part 1', transcription_status: 'processing' });

    expect((await upload(waiting, headers, id, 2)).statusCode).toBe(201);
    const doc = await until(
      'document written',
      () => mainDoc(waiting, headers, id),
      (d) => d.status !== 'generating',
    );
    expect(doc.status).toBe('done');
    expect(doc.text).toContain('words of part 0 words of part 1 words of part 2');
    const after = (await waiting.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers })).json();
    expect(after.transcription_status).toBe('done');
  });

  it('after the bounded wait the document is written with what arrived and says which parts are missing', async () => {
    const { headers, id } = await startedSession(bounded);
    await upload(bounded, headers, id, 0);
    await upload(bounded, headers, id, 2);
    await transcribed(bounded, id, 2);
    await finish(bounded, headers, id, { parts: 5 });

    const doc = await until(
      'document written',
      () => mainDoc(bounded, headers, id),
      (d) => d.status !== 'generating',
    );
    expect(doc.status).toBe('done');
    expect(doc.text).toContain('words of part 0 [part 2 did not arrive] words of part 2 [parts 4–5 did not arrive]');
    const transcription = (await bounded.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers })).json();
    expect(transcription).toMatchObject({
      transcription: 'words of part 0 [part 2 did not arrive] words of part 2 [parts 4–5 did not arrive]',
      transcription_status: 'partial',
    });
  });

  it('without a count the document is written from the parts there are, as before', async () => {
    const { headers, id } = await startedSession(waiting);
    await upload(waiting, headers, id, 0);
    await transcribed(waiting, id, 1);
    const res = await finish(waiting, headers, id);
    expect(res.json().consultation_session.expected_parts).toBeNull();
    const doc = await until(
      'document written',
      () => mainDoc(waiting, headers, id),
      (d) => d?.status === 'done',
    );
    expect(doc.text).toContain('words of part 0');
  });

  it('a repeated finish may raise the count, never lower it, and answers the finished session', async () => {
    const { headers, id } = await startedSession(waiting);
    await finish(waiting, headers, id, { parts: 0 });
    const raised = await finish(waiting, headers, id, { parts: 2 });
    expect(raised.statusCode).toBe(200);
    expect(raised.json().consultation_session).toMatchObject({ status: 'finished', expected_parts: 2 });
    expect((await finish(waiting, headers, id, { parts: 1 })).json().consultation_session.expected_parts).toBe(2);
    expect((await finish(waiting, headers, id)).json().consultation_session.expected_parts).toBe(2);
    // Still one main document: only the first finish started it.
    const versions = await waiting.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id));
    expect(versions).toHaveLength(1);
  });

  it('refuses a bad count with a clear 400, and finishes nothing', async () => {
    const { headers, id } = await startedSession(waiting);
    for (const payload of [{ parts: -1 }, { parts: '3' }, { parts: 1e9 }, { parts: 1.5 }, { parts: null }, { parts: 3, extra: true }, [3]]) {
      const res = await finish(waiting, headers, id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code, JSON.stringify(payload)).toMatch(/^invalid_(request|json)$/);
    }
    const res = await finish(waiting, headers, id, { parts: -1 });
    expect(res.json().error.fields).toEqual({ parts: 'parts must be a whole number from 0 to 100000' });
    expect((await finish(waiting, headers, id, { parts: 3, extra: true })).json().error.fields).toEqual({ extra: 'not_allowed' });
    expect((await findSessionById(waiting.ctx.db, id))!.status).toBe('active');
    expect((await finish(waiting, headers, id, { parts: 100_000 })).statusCode).toBe(200);
  });
});

describe('what the waiting screen is told', () => {
  const progress = async (t: TestApp, headers: Record<string, string>, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress`, headers })).json().consultation_progress;
  const recordOn = (t: TestApp, headers: Record<string, string>, id: string, payload: { platform: string; mobile?: boolean }) =>
    t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/recording`, headers, payload });

  it('names each missing part, the device it is expected from, and when the notes are written without it', async () => {
    const { headers, id } = await startedSession(waiting);
    expect((await recordOn(waiting, headers, id, { platform: 'web' })).statusCode).toBe(200);
    await upload(waiting, headers, id, 0);
    await upload(waiting, headers, id, 2);
    // Part 1 never came from the computer; the phone goes on after the parts the server has.
    expect((await recordOn(waiting, headers, id, { platform: 'web', mobile: true })).statusCode).toBe(200);
    await upload(waiting, headers, id, 3);
    expect((await progress(waiting, headers, id)).awaited_parts).toBeNull();

    const finishedAt = Date.now();
    await finish(waiting, headers, id, { parts: 6 });
    const answer = await progress(waiting, headers, id);
    expect(answer.expected_parts).toBe(6);
    expect(answer.awaited_parts.missing).toEqual([
      { first_order: 1, last_order: 1, device: 'computer' },
      { first_order: 4, last_order: 5, device: 'phone' },
    ]);
    const deadline = Date.parse(answer.awaited_parts.write_without_at);
    expect(deadline).toBeGreaterThanOrEqual(finishedAt + 600_000 - 1000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(answer.awaited_parts.write_without_in_ms).toBeGreaterThan(590_000);
    expect(answer.awaited_parts.write_without_in_ms).toBeLessThanOrEqual(600_000);
    // The whole session says the same.
    const whole = (await waiting.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).json().consultation_session;
    expect(whole.awaited_parts.missing).toEqual(answer.awaited_parts.missing);

    // A part arriving leaves the list; the last one ends the wait.
    await upload(waiting, headers, id, 1);
    expect((await progress(waiting, headers, id)).awaited_parts.missing).toEqual([{ first_order: 4, last_order: 5, device: 'phone' }]);
    await upload(waiting, headers, id, 4);
    await upload(waiting, headers, id, 5);
    expect((await progress(waiting, headers, id)).awaited_parts).toBeNull();
  });

  it('a teleconsultation is named as such; a client that never said how it records names no device', async () => {
    const tele = await startedSession(waiting);
    await recordOn(waiting, tele.headers, tele.id, { platform: 'web-teleconsultation' });
    await finish(waiting, tele.headers, tele.id, { parts: 1 });
    expect((await progress(waiting, tele.headers, tele.id)).awaited_parts.missing).toEqual([{ first_order: 0, last_order: 0, device: 'teleconsultation' }]);

    const silent = await startedSession(waiting);
    await finish(waiting, silent.headers, silent.id, { parts: 2 });
    expect((await progress(waiting, silent.headers, silent.id)).awaited_parts.missing).toEqual([{ first_order: 0, last_order: 1, device: null }]);
  });

  it('once the wait is over nothing is awaited, and the marks of the missing parts are in the language of the document', async () => {
    const { headers, id } = await startedSession(bounded, 'pt');
    await upload(bounded, headers, id, 0);
    await upload(bounded, headers, id, 2);
    await transcribed(bounded, id, 2);
    await finish(bounded, headers, id, { parts: 5 });
    expect((await progress(bounded, headers, id)).awaited_parts.missing).toHaveLength(2);

    const doc = await until(
      'document written',
      () => mainDoc(bounded, headers, id),
      (d) => d.status !== 'generating',
    );
    expect(doc.text).toContain('words of part 0 [a parte 2 não chegou] words of part 2 [as partes 4–5 não chegaram]');
    expect(doc.text).not.toContain('did not arrive');
    const after = await progress(bounded, headers, id);
    expect(after.awaited_parts).toBeNull();
    // The transcript on screen keeps the language spoken in the consultation.
    expect(after.transcription.text).toContain('words of part 0 [part 2 did not arrive] words of part 2');
  });
});

describe('finish starts the main document once', () => {
  const debitsOf = (t: TestApp, ownerUserId: string) =>
    t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.ownerUserId, ownerUserId), lt(creditLedger.amount, 0)));

  it('two finishes at once: one version, one debit', async () => {
    for (let round = 0; round < 3; round++) {
      const { user, headers, id } = await startedSession(charged);
      await grantCredits(charged.ctx.db, { ownerUserId: user.id }, 5);
      await charged.app.inject({
        method: 'PUT',
        url: `/v1/consultation_sessions/${id}/transcription`,
        headers,
        payload: { transcription: 'Cough for a week.' },
      });
      const answers = await Promise.all([finish(charged, headers, id, { parts: 0 }), finish(charged, headers, id), finish(charged, headers, id, { parts: 0 })]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      const doc = await until(
        'document written',
        () => mainDoc(charged, headers, id),
        (d) => d?.status === 'done',
      );
      expect(doc).toMatchObject({ version: 1, total_versions: 1 });
      expect(await charged.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id))).toHaveLength(1);
      expect(await debitsOf(charged, user.id), `round ${round}`).toHaveLength(1);
    }
  });

  it('the database refuses a second finish-triggered version, and it is not debited', async () => {
    const { user, headers, id } = await startedSession(charged);
    await grantCredits(charged.ctx.db, { ownerUserId: user.id }, 5);
    await charged.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'Cough for a week.' } });
    // As two processes would, each past its own check: both start the finish-triggered version.
    const session = (await findSessionById(charged.ctx.db, id))!;
    const [a, b] = await Promise.all([
      startGeneration(charged.ctx, session, 'main', { finishTriggered: true }),
      startGeneration(charged.ctx, session, 'main', { finishTriggered: true }),
    ]);
    expect(a.id).toBe(b.id);
    await until(
      'document written',
      () => mainDoc(charged, headers, id),
      (d) => d?.status === 'done',
    );
    expect(await charged.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id))).toHaveLength(1);
    expect(await debitsOf(charged, user.id)).toHaveLength(1);
    // Other starts (the clinician asking again) are new versions, each debited.
    const again = await charged.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers });
    expect(again.json().generated_document.version).toBe(2);
    expect(await debitsOf(charged, user.id)).toHaveLength(2);
  });
});
