/**
 * A consultation is transcribed only by an engine that speaks its language: the English-only local engine keeps a
 * Portuguese consultation's parts, untranscribed, until an engine that does is connected or the language changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../ai/transcriber.js';
import { audioChunks, consultationSessions, users } from '../db/schema.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

const engine = {
  info: { engine: 'local' as const, id: 'pocketsphinx:clinical', demoQuality: true, languages: ['en'] },
  transcribe: async () => 'the patient has had a cough for [two?] weeks',
} satisfies Transcriber;

let t: TestApp;
let dir: string;
let tones: Buffer[];
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: engine });
  dir = mkdtempSync(path.join(tmpdir(), 'cn-language-'));
  tones = [makeWebm(dir, 'a', 1, 440), makeWebm(dir, 'b', 1, 660)];
});
afterAll(async () => {
  engine.info.languages = ['en'];
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (headers: Record<string, string>, id: string, order: number) => {
  const m = multipartAudio(order, tones[order]!);
  return t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
};

async function portugueseClinician() {
  const u = await createUser(t);
  await t.ctx.db.update(users).set({ language: 'pt' }).where(eq(users.id, u.id));
  return bearer(await login(t, u.email, u.password));
}

describe('the language of a consultation and the speech engine', () => {
  it('keeps a Portuguese consultation untranscribed with an English-only engine, and transcribes it once it is said to be English', async () => {
    const headers = await portugueseClinician();
    const created = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session;
    expect(created.language).toBe('pt');
    expect((await upload(headers, created.id, 0)).statusCode).toBe(201);
    await t.ctx.transcriptionQueue.drain();

    const kept = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${created.id}`, headers })).json().consultation_session;
    expect(kept.transcription_status).toBe('unavailable');
    expect(kept.transcription).toBe('');
    expect(kept.audios[0].audio_kept).toBe(true);
    const [row] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, created.id));
    expect(row!.transcript).toBeNull();
    expect(row!.lastError).toMatch(/does not transcribe pt/);

    const bad = await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${created.id}`, headers, payload: { language: 'fr' } });
    expect(bad.statusCode).toBe(400);
    const changed = await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${created.id}`, headers, payload: { language: 'en' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().consultation_session.language).toBe('en');
    await t.ctx.transcriptionQueue.drain();
    const done = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${created.id}`, headers })).json().consultation_session;
    expect(done.transcription_status).toBe('done');
    expect(done.transcription).toBe('the patient has had a cough for [two?] weeks');
    const [transcribed] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, created.id));
    expect(transcribed!.transcribedBy).toBe('pocketsphinx:clinical');
  });

  it('never sends a consultation past its retention window to an engine connected later', async () => {
    engine.info.languages = ['en'];
    const headers = await portugueseClinician();
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id as string;
    expect((await upload(headers, id, 0)).statusCode).toBe(201);
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    await t.ctx.transcriptionQueue.drain();
    await t.ctx.db
      .update(consultationSessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(consultationSessions.id, id));
    engine.info.languages = ['pt', 'en', 'de', 'es'];
    t.ctx.transcriptionQueue.wake();
    await t.ctx.transcriptionQueue.drain();
    const [row] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
    expect(row!.transcriptionStatus).toBe('unavailable');
    engine.info.languages = ['en'];
  });

  it('transcribes the kept parts once an engine that speaks the language is connected', async () => {
    const headers = await portugueseClinician();
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/consultation_sessions',
        headers,
        payload: { consultation_type_id: 'general_consultation', language: 'pt' },
      })
    ).json().consultation_session.id as string;
    expect((await upload(headers, id, 0)).statusCode).toBe(201);
    expect((await upload(headers, id, 1)).statusCode).toBe(201);
    await t.ctx.transcriptionQueue.drain();
    const statuses = async () => (await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id))).map((r) => r.transcriptionStatus);
    expect(await statuses()).toEqual(['unavailable', 'unavailable']);

    engine.info.languages = ['pt', 'en', 'de', 'es'];
    await t.ctx.transcriptionQueue.drain();
    expect(await statuses()).toEqual(['done', 'done']);
    // Started in English by a Portuguese clinician: transcribed at once.
    const english = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/consultation_sessions',
        headers,
        payload: { consultation_type_id: 'general_consultation', language: 'en', force: true },
      })
    ).json().consultation_session;
    expect(english.language).toBe('en');
  });
});
