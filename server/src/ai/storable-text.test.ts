import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import type { TextGenerator } from './text-generator.js';
import { grantCredits } from '../modules/credits/service.js';

/** Engines that answer with NUL characters, as a speech model or a PDF's text layer now and then does. */
const generator: TextGenerator = {
  info: { engine: 'openai', model: 'scripted', usesAi: true },
  async *write() {
    yield '# Notes\n\nChest\u0000 pain';
    yield ' for two days.\u0000';
  },
};

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp(
    {},
    { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'chest pain\u0000 for two days' }, textGenerator: generator },
  );
  dir = mkdtempSync(path.join(tmpdir(), 'cn-nul-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('engine output with NUL characters', () => {
  it('is stored without them: the transcript and the document are kept, not lost to a failed insert', async () => {
    const u = await createUser(t);
    // A document written by a model costs a credit.
    await grantCredits(t.ctx.db, { ownerUserId: u.id }, 5);
    const headers = bearer(await login(t, u.email, u.password));
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    const part = multipartAudio(0, makeWebm(dir, 'nul', 1));
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...part.headers }, payload: part.payload }))
        .statusCode,
    ).toBe(201);
    await t.ctx.transcriptionQueue.drain();
    const transcription = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers })).json();
    expect(transcription).toMatchObject({ transcription: 'chest pain for two days', transcription_status: 'done' });

    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    while (t.ctx.background.size) await Promise.allSettled([...t.ctx.background]);
    const doc = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document;
    expect(doc).toMatchObject({ status: 'done', text: '# Notes\n\nChest pain for two days.' });
  });
});
