/**
 * Encryption at rest through the real API: what clinicians and researchers upload (audio parts, patient PDFs,
 * custom-document examples) is never on disk in the clear, is given back exactly, and the decrypted copies that
 * the speech engine, ffmpeg and the OCR read are gone once they are done.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../ai/transcriber.js';
import { audioChunks, researchPatientFiles } from '../db/schema.js';
import { multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { scannedRecordPdf, textRecordPdf } from '../../../tests/fixtures/patient-records.js';
import { ocrAvailable } from '../modules/research_spaces/pdf-ocr.js';
import { plaintextScratchRoot } from './plaintext-scratch.js';

const MARKER = 'ZEBRA-MARKER-Custodia-7731';

/** Every file under `dir` whose bytes hold `needle`. */
function filesContaining(dir: string, needle: Buffer): string[] {
  const hits: string[] = [];
  const visit = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(path.join(p, n));
    else if (st.isFile() && readFileSync(p).includes(needle)) hits.push(path.relative(dir, p));
  };
  visit(dir);
  return hits;
}

/** What the speech engine saw while it ran: the file, whether it held the upload, and its mode. */
const seenByEngine: { file: string; content: Buffer; mode: number }[] = [];
const engine: Transcriber = {
  info: { engine: 'local', languages: ['en'] },
  async transcribe({ filePath }) {
    seenByEngine.push({ file: filePath, content: readFileSync(filePath), mode: statSync(filePath).mode & 0o777 });
    return 'the patient reports chest pain';
  },
};

let t: TestApp;
let work: string;
let wav: Buffer;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: engine });
  work = mkdtempSync(path.join(tmpdir(), 'cn-at-rest-'));
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=1',
    '-metadata',
    `title=${MARKER}`,
    path.join(work, 'part.wav'),
  ]);
  wav = readFileSync(path.join(work, 'part.wav'));
  const u = await createUser(t, { language: 'en' });
  headers = bearer(await login(t, u.email, u.password));
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const scratch = () => plaintextScratchRoot(t.dataDir);
const marker = Buffer.from(MARKER);

function form(field: string, name: string, type: string, data: Buffer, fields: Record<string, string> = {}) {
  const boundary = '----cn-at-rest';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('encryption at rest through the API', () => {
  let sessionId: string;
  let audioId: string;

  it('an audio part is stored encrypted, transcribed from a copy that is then removed, and given back exactly', async () => {
    expect(wav.includes(marker)).toBe(true);
    sessionId = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    const m = multipartAudio(0, wav, 'audio/wav');
    const up = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${sessionId}/audios`,
      headers: { ...headers, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(201);
    audioId = up.json().audio.id;
    await t.ctx.transcriptionQueue.drain();

    const [row] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.id, audioId));
    expect(row!.transcript).toBe('the patient reports chest pain');
    expect(seenByEngine).toHaveLength(1);
    expect(seenByEngine[0]!.content).toEqual(wav);
    expect(seenByEngine[0]!.mode).toBe(0o600);
    expect(seenByEngine[0]!.file.startsWith(scratch() + path.sep)).toBe(true);
    expect(existsSync(seenByEngine[0]!.file)).toBe(false);
    expect(readdirSync(scratch())).toEqual([]);

    expect(filesContaining(path.join(t.dataDir, 'files'), marker)).toEqual([]);
    const download = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${sessionId}/audios/${audioId}`, headers });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(wav);
  });

  it('the whole recording is joined by ffmpeg from decrypted copies that are removed before it is sent', async () => {
    const { audio_url } = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${sessionId}/audio_url`, headers })).json();
    const res = await t.app.inject({ method: 'GET', url: new URL(audio_url).pathname + new URL(audio_url).search });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/webm');
    expect(res.rawPayload.readUInt32BE(0)).toBe(0x1a45dfa3);
    expect(readdirSync(scratch())).toEqual([]);
  });

  it('patient PDFs and custom-document examples are stored encrypted; a scanned PDF is read by OCR from a removed copy', async () => {
    const space = (await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'Cardio' } } })).json()
      .research_space;
    const record = textRecordPdf([`Patient ${MARKER}`, 'Type 2 diabetes mellitus since 2015.', 'HbA1c 8.2 %.']);
    expect(record.includes(marker)).toBe(true);
    const up = form('files', 'record.pdf', 'application/pdf', record, { label: 'P-1' });
    const patient = await t.app.inject({
      method: 'POST',
      url: `/v1/research_spaces/${space.id}/patients`,
      headers: { ...headers, ...up.headers },
      payload: up.payload,
    });
    expect(patient.statusCode).toBe(201);
    const { id: patientId, files } = patient.json().patient;
    const pdf = await t.app.inject({ method: 'GET', url: `/v1/research_spaces/${space.id}/patients/${patientId}/files/${files[0].id}`, headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload).toEqual(record);

    const scan = form('files', 'scan.pdf', 'application/pdf', scannedRecordPdf(['Clinical report', 'Type 2 diabetes mellitus since 2012.']));
    const scanned = await t.app.inject({
      method: 'POST',
      url: `/v1/research_spaces/${space.id}/patients`,
      headers: { ...headers, ...scan.headers },
      payload: scan.payload,
    });
    expect(scanned.statusCode).toBe(201);
    await t.ctx.ocrQueue.drain();
    const [read] = await t.ctx.db.select().from(researchPatientFiles).where(eq(researchPatientFiles.id, scanned.json().patient.files[0].id));
    if (ocrAvailable()) {
      expect(read!.textStatus).toBe('ocr_done');
      expect(read!.text).toMatch(/diabetes/i);
    } else {
      expect(read!.textStatus).toBe('no_text');
    }
    expect(readdirSync(scratch())).toEqual([]);

    const request = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/custom_document_requests',
        headers,
        payload: { custom_document_request: { title: 'Letter', sections: [], other_comments: '' } },
      })
    ).json().custom_document_request;
    const example = form('file', 'example.txt', 'text/plain', Buffer.from(`An example letter about ${MARKER}.`));
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/custom_document_requests/${request.id}/examples`,
          headers: { ...headers, ...example.headers },
          payload: example.payload,
        })
      ).statusCode,
    ).toBe(201);

    // Nothing written through the API is readable in the data folder: not the files, not the scratch space.
    expect(filesContaining(t.dataDir, marker)).toEqual([]);
  });

  it('a blob altered on disk is refused, never served', async () => {
    const [row] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.id, audioId));
    const file = path.join(t.dataDir, 'files', row!.blobKey);
    const good = readFileSync(file);
    const bad = Buffer.from(good);
    bad[bad.length - 100]! ^= 0xff;
    writeFileSync(file, bad);
    const res = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${sessionId}/audios/${audioId}`, headers });
    expect(res.statusCode).toBe(500);
    expect(res.rawPayload.includes(wav.subarray(100, 200))).toBe(false);
    writeFileSync(file, good);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${sessionId}/audios/${audioId}`, headers })).rawPayload).toEqual(wav);
  });
});
