import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioChunks, consultationSessions, generatedDocuments } from '../db/schema.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { sessionBlobPrefix, sweepExpiredConsultations } from './retention.js';

let t: TestApp;
let audio: Buffer;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'the patient has a cough' } });
  audio = makeWebm(mkdtempSync(path.join(tmpdir(), 'cn-ret-')), 'part', 1);
});
afterAll(() => t.close());

async function recordedConsultation(prefs: { saveAudios?: boolean; saveTextData?: boolean }) {
  const u = await createUser(t, prefs);
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })).json().consultation_session.id;
  const m = multipartAudio(0, audio);
  expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload })).statusCode).toBe(201);
  await t.ctx.transcriptionQueue.drain();
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
  await waitForDocument(id);
  return { headers, id };
}

async function waitForDocument(id: string) {
  for (let i = 0; i < 100; i++) {
    const rows = await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id));
    if (rows.some((r) => r.status !== 'generating')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const blobDir = (id: string) => path.join(t.dataDir, 'files', sessionBlobPrefix(id));
const expire = (id: string) => t.ctx.db.update(consultationSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(consultationSessions.id, id));
const sessionRow = async (id: string) => (await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, id)))[0];

describe('retention', () => {
  it('leaves consultations inside their window alone', async () => {
    const { id } = await recordedConsultation({});
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    expect((await sessionRow(id))?.status).toBe('finished');
    expect(existsSync(blobDir(id))).toBe(true);
  });

  it('without save_text_data, an expired consultation is gone from the database and the blob store', async () => {
    const { headers, id } = await recordedConsultation({ saveTextData: false });
    expect(existsSync(blobDir(id))).toBe(true);
    await expire(id);
    const result = await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    expect(await sessionRow(id)).toBeUndefined();
    expect(await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id))).toEqual([]);
    expect(await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id))).toEqual([]);
    expect(existsSync(blobDir(id))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).statusCode).toBe(404);
  });

  it('with save_text_data, the audio goes and the text stays, archived out of every consultation call', async () => {
    const { headers, id } = await recordedConsultation({ saveTextData: true });
    await expire(id);
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    const row = await sessionRow(id);
    expect(row).toMatchObject({ status: 'archived', transcriptionOverride: 'the patient has a cough' });
    expect(await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id))).toEqual([]);
    expect(existsSync(blobDir(id))).toBe(false);
    expect((await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id))).length).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).statusCode).toBe(404);
    // A second sweep has nothing left to do for it.
    expect((await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs)).archived).toBe(0);
  });

  it('without save_audios, a part’s audio is removed once transcribed and its transcript kept', async () => {
    const { headers, id } = await recordedConsultation({ saveAudios: false });
    const [chunk] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
    expect(chunk).toMatchObject({ transcriptionStatus: 'done', transcript: 'the patient has a cough' });
    expect(chunk!.audioDeletedAt).toBeInstanceOf(Date);
    expect(existsSync(path.join(t.dataDir, 'files', chunk!.blobKey))).toBe(false);
    const res = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/audios/${chunk!.id}`, headers });
    expect(res.statusCode).toBe(410);
    expect(res.json().error.code).toBe('audio_not_kept');
    const listed = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/audios`, headers })).json().audios;
    expect(listed[0]).toMatchObject({ audio_kept: false, transcription_status: 'done' });
  });

  it('with save_audios on, the audio stays until the window ends', async () => {
    const { id } = await recordedConsultation({ saveAudios: true });
    const [chunk] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
    expect(chunk!.audioDeletedAt).toBeNull();
    expect(existsSync(path.join(t.dataDir, 'files', chunk!.blobKey))).toBe(true);
  });
});
