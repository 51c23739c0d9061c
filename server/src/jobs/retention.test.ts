import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { assistantMessages, assistantThreads, audioChunks, consultationFeedback, consultationSessions, generatedDocuments, users } from '../db/schema.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, getUserRow, login } from '../test-support/factories.js';
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
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  const m = multipartAudio(0, audio);
  expect(
    (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
      .statusCode,
  ).toBe(201);
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
const expire = (id: string) =>
  t.ctx.db
    .update(consultationSessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(consultationSessions.id, id));
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

  it("keeps a deleted consultation's feedback ratings but not its free-text comment", async () => {
    const { headers, id } = await recordedConsultation({ saveTextData: false });
    const sent = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/feedback`,
      headers,
      payload: { feedback: { doctor_satisfaction: 9, comment: 'Mrs Silva, 58, worried about her HbA1c.' } },
    });
    expect(sent.statusCode).toBeLessThan(300);
    await expire(id);
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    const left = await t.ctx.db.select().from(consultationFeedback).where(eq(consultationFeedback.doctorSatisfaction, 9));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ sessionId: null, comment: null, doctorSatisfaction: 9 });
  });

  it('with save_text_data, the audio goes and the text stays, archived and read-only', async () => {
    const { headers, id } = await recordedConsultation({ saveTextData: true });
    await expire(id);
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    const row = await sessionRow(id);
    expect(row).toMatchObject({ status: 'archived', transcriptionOverride: 'the patient has a cough' });
    expect(await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id))).toEqual([]);
    expect(existsSync(blobDir(id))).toBe(false);
    expect((await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id))).length).toBeGreaterThan(0);
    // Still readable by its owner (consultation_sessions/archived.test.ts covers every call).
    const read = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers });
    expect(read.json().consultation_session).toMatchObject({ status: 'archived', read_only: true, transcription: 'the patient has a cough' });
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

describe('consultations never finished', () => {
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
  /** A consultation still active, with one part received; both its last change and its part dated `quietFor` hours ago. */
  async function activeConsultation(quietFor: { row: number; part?: number }, prefs: { saveTextData?: boolean } = {}) {
    const u = await createUser(t, prefs);
    const headers = bearer(await login(t, u.email, u.password));
    const id: string = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${id}`,
      headers,
      payload: { user_inputs: [{ processor_input_id: 'notes', value: 'left unfinished' }] },
    });
    if (quietFor.part !== undefined) {
      const m = multipartAudio(0, audio);
      expect(
        (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
          .statusCode,
      ).toBe(201);
      await t.ctx.transcriptionQueue.drain();
      await t.ctx.db
        .update(audioChunks)
        .set({ createdAt: hoursAgo(quietFor.part) })
        .where(eq(audioChunks.sessionId, id));
    }
    // Started long before either: the start time must not decide.
    await t.ctx.db
      .update(consultationSessions)
      .set({ createdAt: hoursAgo(48), updatedAt: hoursAgo(quietFor.row) })
      .where(eq(consultationSessions.id, id));
    return { headers, id };
  }
  const sweep = () => sweepExpiredConsultations(t.ctx.db, t.ctx.blobs, { abandonedAfterHours: 12 });

  it('ABANDONED_SESSION_HOURS defaults to 12', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-cfg-'));
    expect(loadConfig({ DATA_DIR: dir }).abandonedSessionHours).toBe(12);
    expect(loadConfig({ DATA_DIR: dir, ABANDONED_SESSION_HOURS: '2' }).abandonedSessionHours).toBe(2);
  });

  it('one quiet for longer than the setting is deleted like an expired one: audio, transcript, inputs and rows', async () => {
    const { headers, id } = await activeConsultation({ row: 13, part: 13 });
    expect(existsSync(blobDir(id))).toBe(true);
    const result = await sweep();
    expect(result.abandoned).toBeGreaterThanOrEqual(1);
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    expect(await sessionRow(id)).toBeUndefined();
    expect(await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id))).toEqual([]);
    expect(existsSync(blobDir(id))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).statusCode).toBe(404);
    // The clinician can start a new one: the active slot is free again.
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })).statusCode,
    ).toBe(201);
  });

  it('a phone that was just told the consultation is active hears at its next poll that the sweep ended it', async () => {
    const { headers, id } = await activeConsultation({ row: 13 });
    const status = async () => (await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json();
    expect(await status()).toMatchObject({ active: true, id });
    const ended: string[] = [];
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs, {
      abandonedAfterHours: 12,
      // As the app wires it (app.ts): the kept answer of each clinician whose consultation ended is dropped.
      onEnded: (userIds) => userIds.forEach((u) => (ended.push(u), t.ctx.activeStatus.forget(u))),
    });
    expect(ended).toHaveLength(1);
    expect(await status()).toEqual({ active: false });
  });

  it('one still recording (a recent part, however old the row) is left alone', async () => {
    const { id } = await activeConsultation({ row: 30, part: 0.01 });
    await sweep();
    expect(await sessionRow(id)).toMatchObject({ status: 'active' });
    expect(existsSync(blobDir(id))).toBe(true);
  });

  it('one changed recently (no parts yet) is left alone, and one just under the setting too', async () => {
    const recent = await activeConsultation({ row: 0.5 });
    const almost = await activeConsultation({ row: 11.9, part: 11.9 });
    await sweep();
    expect(await sessionRow(recent.id)).toMatchObject({ status: 'active' });
    expect(await sessionRow(almost.id)).toMatchObject({ status: 'active' });
  });

  it('with save_text_data on, an abandoned one keeps its text as a finished one does (archived), its audio goes', async () => {
    const { id } = await activeConsultation({ row: 20, part: 20 }, { saveTextData: true });
    await sweep();
    expect(await sessionRow(id)).toMatchObject({ status: 'archived', transcriptionOverride: 'the patient has a cough' });
    expect(existsSync(blobDir(id))).toBe(false);
  });

  it('without the setting the sweep touches no active consultation', async () => {
    const { id } = await activeConsultation({ row: 100, part: 100 });
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    expect(await sessionRow(id)).toMatchObject({ status: 'active' });
    await t.ctx.db.delete(consultationSessions).where(eq(consultationSessions.id, id));
  });
});

describe('save_text_data', () => {
  it('is off for a new account (the column default), and an explicit choice is stored as made', async () => {
    const result = await t.ctx.db.execute(
      sql`select column_default from information_schema.columns where table_name = 'users' and column_name = 'save_text_data'`,
    );
    const [column] = (result as unknown as { rows: { column_default: string }[] }).rows;
    expect(column!.column_default).toBe('false');
    const plain = await createUser(t);
    expect((await getUserRow(t, plain.id))!.saveTextData).toBe(false);
    const keeper = await createUser(t, { saveTextData: true });
    expect((await getUserRow(t, keeper.id))!.saveTextData).toBe(true);
    const [row] = await t.ctx.db.select({ keep: users.saveTextData }).from(users).where(eq(users.id, keeper.id));
    expect(row!.keep).toBe(true);
  });

  it('is off for someone who signs up through the API', async () => {
    const email = `signup.${Date.now()}@clinic.test`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      remoteAddress: '10.77.0.1',
      payload: { user: { name: 'Dr. New', email, password: 'a-long-password-1', language: 'en' } },
    });
    expect(res.statusCode).toBe(202);
    const [created] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(created?.saveTextData).toBe(false);
  });
});

describe('assistant conversations', () => {
  /** A conversation with two messages, the last one `minutesAgo` old. */
  async function conversation(saveTextData: boolean, minutesAgo: number) {
    const u = await createUser(t, { saveTextData });
    const [thread] = await t.ctx.db
      .insert(assistantThreads)
      .values({ userId: u.id, assistantKey: 'clinical', threadKey: `k-${u.id}`, createdAt: new Date(Date.now() - 120 * 60_000) })
      .returning();
    await t.ctx.db.insert(assistantMessages).values([
      { threadId: thread!.id, role: 'user', content: 'Mrs Example, 71, on warfarin: can she take ibuprofen?', createdAt: new Date(Date.now() - 120 * 60_000) },
      { threadId: thread!.id, role: 'assistant', content: 'Avoid it.', createdAt: new Date(Date.now() - minutesAgo * 60_000) },
    ]);
    return thread!.id;
  }
  const exists = async (id: string) => (await t.ctx.db.select().from(assistantThreads).where(eq(assistantThreads.id, id))).length === 1;

  it('follow the retention window from their last message, unless the clinician keeps text', async () => {
    const idle = await conversation(false, 61);
    const active = await conversation(false, 5);
    const kept = await conversation(true, 600);
    const result = await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs, { conversationMinutes: 60 });
    expect(result.conversations).toBeGreaterThanOrEqual(1);
    expect(await exists(idle)).toBe(false);
    expect(await t.ctx.db.select().from(assistantMessages).where(eq(assistantMessages.threadId, idle))).toEqual([]);
    expect(await exists(active)).toBe(true);
    expect(await exists(kept)).toBe(true);
  });
});
