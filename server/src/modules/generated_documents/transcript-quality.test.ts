/**
 * A document written from the local engine's transcript says so, and so does every copy of it: the text the
 * clinician copies, its PDF and the record system's copy (FHIR). A new version ends with its own line, once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bundle, Composition, DocumentReference } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../../ai/transcriber.js';
import { transcriptQualityLine, withoutQualityLine } from '../../ai/transcript-quality.js';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';

const local: Transcriber = {
  info: { engine: 'local', id: 'pocketsphinx:clinical', demoQuality: true, languages: ['en'] },
  transcribe: async () => 'the patient has had a dry cough for two weeks [the codeine?] no fever i will start honey and rest',
};

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: local });
  dir = mkdtempSync(path.join(tmpdir(), 'cn-quality-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function pdfText(data: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++)
    pages.push((await (await doc.getPage(i)).getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join(' '));
  return pages.join('\n');
}

describe('the quality of the transcript, said in every copy of a document', () => {
  it('ends the notes with the demo-quality line, carried into the FHIR export, its PDF and its markdown', async () => {
    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id as string;
    const m = multipartAudio(0, makeWebm(dir, 'tone', 1));
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
        .statusCode,
    ).toBe(201);
    await t.ctx.transcriptionQueue.drain();
    const session = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).json().consultation_session;
    expect(session.transcription_engines).toEqual(['pocketsphinx:clinical']);

    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers, payload: { parts: 1 } });
    const notes = await until(
      'notes written',
      async () => (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document,
      (d) => d?.status === 'done',
    );
    const line = 'Transcript by the local speech engine: demo quality — check every value against the recording.';
    expect(notes.text.trim().endsWith(`_${line}_`)).toBe(true);
    expect(notes.text).toContain('[the codeine?]');
    expect(notes.text).not.toMatch(/Medication: .*codeine/);

    const bundle = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir`, headers })).json() as Bundle;
    const composition = bundle.entry![0]!.resource as Composition;
    expect(composition.section![0]!.text!.div).toContain('demo quality');
    const reference = bundle.entry!.find((e) => e.resource!.resourceType === 'DocumentReference')!.resource as DocumentReference;
    expect(Buffer.from(reference.content[1]!.attachment.data!, 'base64').toString('utf8')).toContain(line);
    const pdf = (await pdfText(Buffer.from(reference.content[0]!.attachment.data!, 'base64'))).replace(/\s+/g, ' ');
    expect(pdf).toContain('demo quality');
    expect(pdf).toContain('check every value against the recording');
  });

  it('says a transcript with many uncertain words is unreliable, whatever the engine, and never says it twice', () => {
    const shaky = 'the [patient?] has [had a?] cough for [two?] weeks and [the codeine?] no fever at all today';
    expect(transcriptQualityLine({ engines: ['openai:whisper-1'], transcript: shaky }, 'pt')).toBe(
      '_Muitas palavras da transcrição não foram ouvidas com clareza — confirme cada valor na gravação._',
    );
    expect(
      transcriptQualityLine({ engines: ['openai:whisper-1'], transcript: 'the patient has had a cough for two weeks and no fever at all' }, 'en'),
    ).toBeUndefined();
    const both = transcriptQualityLine({ engines: ['pocketsphinx:generic'], transcript: shaky }, 'de')!;
    expect(both).toMatch(/Demo-Qualität.*nicht sicher erkannt/);
    const document = `# Notes\n\n## Plan\n- Rest.\n\n${both}\n`;
    expect(withoutQualityLine(document)).toBe('# Notes\n\n## Plan\n- Rest.\n\n');
  });
});
