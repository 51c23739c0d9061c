/**
 * A teleconsultation's parts through the API: the recorder says the part holds two channels, the worker
 * transcribes the sides apart and the consultation's transcript says who spoke.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../../ai/transcriber.js';
import { audioChunks, users } from '../../db/schema.js';
import { multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { TELECONSULTATION, twoVoiceParts } from '../../test-support/two-voices.js';

const haveEspeak = (() => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** An engine with no times, answering by the side it is given (and the one voice of a mixed part). */
const bySide: Transcriber = {
  info: { engine: 'openai', languages: ['pt', 'en', 'de', 'es'] },
  transcribe: async ({ filePath }) =>
    ({ 'clinician.wav': 'o que o traz cá', 'patient.wav': 'tenho tosse há duas semanas' })[path.basename(filePath)] ?? 'uma só voz',
};

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: bySide });
  dir = mkdtempSync(path.join(tmpdir(), 'cn-tele-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (headers: Record<string, string>, id: string, order: number, data: Buffer, fields: Record<string, string>) => {
  const m = multipartAudio(order, data, 'audio/webm;codecs=opus', undefined, fields);
  return t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
};

describe.skipIf(!haveEspeak)('a teleconsultation recorded as two channels', () => {
  it('gets a transcript that says who spoke, in the clinician’s language; a part without the layout stays one voice', async () => {
    const u = await createUser(t);
    await t.ctx.db.update(users).set({ language: 'pt' }).where(eq(users.id, u.id));
    const headers = bearer(await login(t, u.email, u.password));
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id as string;
    const [part] = twoVoiceParts(dir, TELECONSULTATION.slice(0, 2), { minPartMs: 60_000 });
    const stereo = readFileSync(part!.file);

    const refused = await upload(headers, id, 0, stereo, { channel_layout: 'left_right' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ channel_layout: 'invalid_channel_layout' });

    expect((await upload(headers, id, 0, stereo, { channel_layout: 'clinician_patient' })).statusCode).toBe(201);
    expect((await upload(headers, id, 1, stereo, {})).statusCode).toBe(201);
    await t.ctx.transcriptionQueue.drain();

    const rows = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
    expect(rows.map((r) => r.channelLayout).sort()).toEqual(['clinician_patient', 'mono']);
    const session = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).json().consultation_session;
    expect(session.transcription).toBe('Médico: o que o traz cá\nDoente: tenho tosse há duas semanas\n\numa só voz');
  });
});
