import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredConsultations } from '../../jobs/retention.js';
import { auditEvents, consultationSessions, generatedDocuments } from '../../db/schema.js';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

/** A consultation past its retention window: readable (text kept) or gone (text not kept), never changeable. */

let t: TestApp;
let audio: Buffer;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'the patient has a cough' } });
  audio = makeWebm(mkdtempSync(path.join(tmpdir(), 'cn-arch-')), 'part', 1);
});
afterAll(() => t.close());

const sessions = '/v1/consultation_sessions';
type Headers = Record<string, string>;
const get = (headers: Headers, url: string) => t.app.inject({ method: 'GET', url, headers });

async function waitForDocuments(id: string) {
  for (let i = 0; i < 200; i++) {
    const rows = await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id));
    if (rows.length > 0 && rows.every((r) => r.status !== 'generating')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('document not written');
}

/** Recorded, transcribed, finished, main document written and then edited by hand (two versions). */
async function finishedConsultation(saveTextData: boolean) {
  const u = await createUser(t, { saveTextData });
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (await t.app.inject({ method: 'POST', url: sessions, headers, payload: { consultation_type_id: 'general_consultation' } })).json()
    .consultation_session.id;
  const m = multipartAudio(0, audio);
  expect((await t.app.inject({ method: 'POST', url: `${sessions}/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload })).statusCode).toBe(
    201,
  );
  await t.ctx.transcriptionQueue.drain();
  expect((await t.app.inject({ method: 'PUT', url: `${sessions}/${id}/finish`, headers })).statusCode).toBe(200);
  await waitForDocuments(id);
  const edited = await regenerate(headers, id, JSON.stringify({ markdown: '# Notes\n\nCough for three days.' }));
  expect(edited.statusCode).toBe(202);
  const [audioPart] = (await get(headers, `${sessions}/${id}/audios`)).json().audios as { id: string }[];
  return { user: u, headers, id, audioId: audioPart!.id };
}

function regenerate(headers: Headers, id: string, requestedChanges: string) {
  const boundary = '----cn-archived';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${requestedChanges}\r\n--${boundary}--\r\n`;
  return t.app.inject({
    method: 'POST',
    url: `${sessions}/${id}/generated_documents/main/regenerate`,
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const expire = (id: string) =>
  t.ctx.db
    .update(consultationSessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(consultationSessions.id, id));
const sweep = () => sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);

/** Every call that changes a consultation, as the clinician's app makes it. */
function changes(headers: Headers, id: string) {
  const m = multipartAudio(1, audio);
  const put = (url: string, payload?: object) => t.app.inject({ method: 'PUT', url, headers, ...(payload ? { payload } : {}) });
  return {
    'user inputs': () => put(`${sessions}/${id}`, { user_inputs: [{ processor_input_id: 'notes', value: 'late note' }] }),
    transcription: () => put(`${sessions}/${id}/transcription`, { transcription: 'rewritten' }),
    'start recording': () => put(`${sessions}/${id}/recording`, { platform: 'web' }),
    pause: () => put(`${sessions}/${id}/pause`),
    resume: () => put(`${sessions}/${id}/resume`),
    finish: () => put(`${sessions}/${id}/finish`),
    upload: () => t.app.inject({ method: 'POST', url: `${sessions}/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }),
    'generate main': () => t.app.inject({ method: 'POST', url: `${sessions}/${id}/generated_documents/main`, headers }),
    'generate another document': () => t.app.inject({ method: 'POST', url: `${sessions}/${id}/generated_documents/clinical_summary`, headers }),
    'change request': () => regenerate(headers, id, JSON.stringify({ text: 'shorter' })),
    'markdown edit': () => regenerate(headers, id, JSON.stringify({ markdown: 'replaced' })),
    'document rating': () => t.app.inject({ method: 'POST', url: `${sessions}/${id}/generated_documents/main/feedback`, headers, payload: { rating: 4 } }),
    'consultation feedback': () =>
      t.app.inject({ method: 'POST', url: `${sessions}/${id}/feedback`, headers, payload: { feedback: { doctor_satisfaction: 8 } } }),
  };
}
const audioCalls = (headers: Headers, id: string, audioId: string) => ({
  list: () => get(headers, `${sessions}/${id}/audios`),
  part: () => get(headers, `${sessions}/${id}/audios/${audioId}`),
  'part as json': () => t.app.inject({ method: 'GET', url: `${sessions}/${id}/audios/${audioId}`, headers: { ...headers, accept: 'application/json' } }),
  'signed address': () => get(headers, `${sessions}/${id}/audio_url`),
});

describe('a consultation whose text is kept, past its retention window', () => {
  let c: Awaited<ReturnType<typeof finishedConsultation>>;
  let expiresAt: string;
  beforeAll(async () => {
    c = await finishedConsultation(true);
    await expire(c.id);
    expiresAt = (await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, c.id)))[0]!.expiresAt!.toISOString();
  });

  it('reads as archived and read-only even before the sweep has reached it', async () => {
    const res = await get(c.headers, `${sessions}/${c.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().consultation_session).toMatchObject({
      status: 'archived',
      read_only: true,
      audio_deleted_at: expiresAt,
      transcription: 'the patient has a cough',
    });
    expect(res.json().consultation_session.audios.every((a: { audio_kept: boolean }) => !a.audio_kept)).toBe(true);
    expect((await audioCalls(c.headers, c.id, c.audioId).part()).statusCode).toBe(410);
  });

  describe('once archived by the sweep', () => {
    beforeAll(async () => {
      expect((await sweep()).archived).toBeGreaterThanOrEqual(1);
      expect((await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, c.id)))[0]!.status).toBe('archived');
    });

    it('answers its text, transcript, documents and every version', async () => {
      const session = (await get(c.headers, `${sessions}/${c.id}`)).json().consultation_session;
      expect(session).toMatchObject({
        status: 'archived',
        read_only: true,
        audio_deleted_at: expiresAt,
        transcription: 'the patient has a cough',
        transcription_status: 'done',
        transcription_edited: false,
        audios: [],
      });
      expect((await get(c.headers, `${sessions}/${c.id}/transcription`)).json()).toEqual({
        transcription: 'the patient has a cough',
        transcription_status: 'done',
        transcription_edited: false,
      });

      const latest = await get(c.headers, `${sessions}/${c.id}/generated_documents/main`);
      expect(latest.statusCode).toBe(200);
      expect(latest.json().generated_document).toMatchObject({ version: 2, total_versions: 2, status: 'done', text: '# Notes\n\nCough for three days.' });
      const first = (await get(c.headers, `${sessions}/${c.id}/generated_documents/main?version=1`)).json().generated_document;
      expect(first).toMatchObject({ version: 1, total_versions: 2, status: 'done' });
      expect(first.text).toContain('the patient has a cough');
      const stream = await get(c.headers, `${sessions}/${c.id}/generated_documents/main/stream`);
      expect(stream.statusCode).toBe(200);
      expect(stream.body).toContain('event: done');
      // A document never written is still "not written yet", not an error.
      expect((await get(c.headers, `${sessions}/${c.id}/generated_documents/referral_letter`)).statusCode).toBe(404);
      expect((await get(c.headers, `${sessions}/${c.id}/generated_documents/main/feedback`)).statusCode).toBe(200);
    });

    it('is listed in the history with the day its audio went', async () => {
      const history = (await get(c.headers, `${sessions}/history`)).json().consultation_sessions;
      expect(history.find((h: { id: string }) => h.id === c.id)).toMatchObject({
        status: 'archived',
        data_kept: 'text',
        audio_deleted_at: expiresAt,
        documents: [{ key: expect.any(String), versions: 2 }],
      });
    });

    it('refuses every change with 409 consultation_archived, and changes nothing', async () => {
      for (const [name, call] of Object.entries(changes(c.headers, c.id))) {
        const res = await call();
        expect([name, res.statusCode, res.json().error?.code]).toEqual([name, 409, 'consultation_archived']);
      }
      const docs = await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, c.id));
      expect(docs).toHaveLength(2);
      expect((await get(c.headers, `${sessions}/${c.id}`)).json().consultation_session.transcription).toBe('the patient has a cough');
    });

    it('answers 410 audio_deleted for its audio', async () => {
      for (const [name, call] of Object.entries(audioCalls(c.headers, c.id, c.audioId))) {
        const res = await call();
        expect([name, res.statusCode, res.json().error?.code]).toEqual([name, 410, 'audio_deleted']);
      }
    });

    it('is, for anyone else, exactly as an id that does not exist', async () => {
      const other = await createUser(t, { saveTextData: true });
      const headers = bearer(await login(t, other.email, other.password));
      const missing = randomUUID();
      const answers = async (id: string) => {
        const out: unknown[] = [];
        for (const call of [...Object.values(changes(headers, id)), ...Object.values(audioCalls(headers, id, c.audioId))]) {
          const res = await call();
          out.push([res.statusCode, res.json()]);
        }
        for (const url of [
          '',
          '/transcription',
          '/generated_documents/main',
          '/generated_documents/main?version=1',
          '/generated_documents/main/feedback',
          '/feedback',
        ]) {
          const res = await get(headers, `${sessions}/${id}${url}`);
          out.push([res.statusCode, res.json()]);
        }
        return out;
      };
      const forArchived = await answers(c.id);
      expect(forArchived).toEqual(await answers(missing));
      expect(forArchived.every((a) => (a as [number])[0] === 404)).toBe(true);
      expect((await get(headers, `${sessions}/history`)).json().consultation_sessions).toEqual([]);
    });

    it('records reading it in the audit log as a read of patient data', async () => {
      const ofThisConsultation = async () => {
        await t.app.auditLog.flush();
        return t.ctx.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.resourceId, c.id), eq(auditEvents.actorUserId, c.user.id)))
          .orderBy(asc(auditEvents.id));
      };
      const before = (await ofThisConsultation()).at(-1)?.id ?? 0;
      await get(c.headers, `${sessions}/${c.id}/generated_documents/main?version=1`);
      await get(c.headers, `${sessions}/${c.id}/transcription`);
      const added = (await ofThisConsultation()).filter((e) => e.id > before);
      expect(added.map((e) => [e.action, e.resourceType, e.outcome, e.statusCode, e.extraIds])).toEqual([
        ['read', 'generated_document', 'success', 200, { document: 'main', version: '1' }],
        ['read', 'transcript', 'success', 200, {}],
      ]);
    });
  });
});

describe('a consultation whose text is not kept, past its retention window', () => {
  it('answers 410 consultation_deleted to every call until the sweep removes it, then 404', async () => {
    const c = await finishedConsultation(false);
    await expire(c.id);
    const reads = ['', '/transcription', '/generated_documents/main'].map((url) => () => get(c.headers, `${sessions}/${c.id}${url}`));
    for (const call of [...reads, ...Object.values(changes(c.headers, c.id)), ...Object.values(audioCalls(c.headers, c.id, c.audioId))]) {
      const res = await call();
      expect([res.statusCode, res.json().error.code]).toEqual([410, 'consultation_deleted']);
    }
    await sweep();
    const gone = await get(c.headers, `${sessions}/${c.id}`);
    expect([gone.statusCode, gone.json().error.code]).toEqual([404, 'not_found']);
  });
});
