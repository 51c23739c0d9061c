/**
 * No plaintext copy of patient audio or pages outside DATA_DIR: the files that ffmpeg, the speech engines, pdftoppm
 * and tesseract read and write live in DATA_DIR's scratch space, and what a crashed process left there is removed
 * at the next start, also when the new process got the crashed one's pid.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhisperTranscriber, type WhisperBinding } from '../ai/whisper-transcriber.js';
import { multipartAudio, makeWebm } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { scannedRecordPdf } from '../../../tests/fixtures/patient-records.js';
import { ocrAvailable, ocrPdf } from '../modules/research_spaces/pdf-ocr.js';
import { openPlaintextScratch, plaintextScratchRoot, removeOrphanScratchFolders, scratchFolderName } from './plaintext-scratch.js';
import { INSTANCE_ID, OWN_START_TIME, processStartTime } from './process-identity.js';

const dirs: string[] = [];
const newDir = (prefix: string) => {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * Runs `fn` with the system's temporary folder (TMPDIR, which os.tmpdir() and the tools read) pointed at a new
 * empty folder, and answers every name created in it meanwhile, even if removed before the end.
 */
async function createdInTmpdir(fn: () => Promise<void>): Promise<string[]> {
  const watched = newDir('cn-watched-tmp-');
  const created = new Set<string>();
  const watcher = watch(watched, (_event, name) => name && created.add(String(name)));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = watched;
  try {
    expect(tmpdir()).toBe(watched);
    await fn();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    // Events arrive asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 100));
    watcher.close();
  }
  for (const name of readdirSync(watched)) created.add(name);
  return [...created];
}

describe('scratch folders left by a crash', () => {
  it("are removed at start when their process is gone, also under this process's own pid from an earlier run", async () => {
    const dataDir = newDir('cn-scratch-');
    const root = plaintextScratchRoot(dataDir);
    const folder = (name: string) => {
      const p = path.join(root, name);
      mkdirSync(p, { recursive: true });
      writeFileSync(path.join(p, 'part.wav'), 'decrypted audio');
      return p;
    };
    // A server restarted after a crash may get the same pid (pid 1 in a container): another instance id is another process.
    const samePidEarlierRun = folder(`${process.pid}.${OWN_START_TIME}-0123456789ab.${randomUUID()}`);
    const samePidOlderFormat = folder(`${process.pid}.${randomUUID()}`);
    const dead = folder(`${2 ** 22 + 1}.1234-0123456789ab.${randomUUID()}`);
    const mine = folder(scratchFolderName());
    const parentStart = processStartTime(process.ppid);
    const parentInUse = folder(`${process.ppid}.${parentStart ?? '0'}-0123456789ab.${randomUUID()}`);
    // A live pid that started at another time than the folder's writer is a later process reusing the pid.
    const reusedPid = parentStart ? folder(`${process.ppid}.${Number(parentStart) + 1}-0123456789ab.${randomUUID()}`) : undefined;

    const scratch = await openPlaintextScratch(dataDir);
    expect(existsSync(samePidEarlierRun)).toBe(false);
    expect(existsSync(samePidOlderFormat)).toBe(false);
    expect(existsSync(dead)).toBe(false);
    if (reusedPid) expect(existsSync(reusedPid)).toBe(false);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(parentInUse)).toBe(true);
    expect(scratch.removedOrphans).toBe(reusedPid ? 4 : 3);
    expect(await removeOrphanScratchFolders(root)).toBe(0);
    // Folders of this process carry its instance id.
    await scratch.withFolder(async (dir) => expect(path.basename(dir)).toContain(`-${INSTANCE_ID}.`));
  });
});

describe('tools work inside DATA_DIR, never in the system temporary folder', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let work: string;
  /** What the (fake) whisper.cpp binding was given: the converted WAV, and what the temporary folder held then. */
  const seen: { wav: string; existed: boolean; tmpdirEntries: string[] }[] = [];
  const binding: WhisperBinding = {
    async initWhisper() {
      return {
        transcribeFile(file) {
          seen.push({ wav: file, existed: existsSync(file), tmpdirEntries: readdirSync(tmpdir()) });
          return { promise: Promise.resolve({ result: ' the patient reports chest pain ' }) };
        },
        async release() {},
      };
    },
  };

  beforeAll(async () => {
    work = newDir('cn-scratch-fixtures-');
    const model = path.join(work, 'ggml-fake.bin');
    writeFileSync(model, 'not a model: the binding is a stand-in');
    t = await createTestApp({}, { transcriber: await createWhisperTranscriber(model, binding) });
    const u = await createUser(t, { language: 'en' });
    headers = bearer(await login(t, u.email, u.password));
  });
  afterAll(() => t.close());

  const scratchEntries = () => readdirSync(plaintextScratchRoot(t.dataDir));
  const inScratch = (file: string) => file.startsWith(plaintextScratchRoot(t.dataDir) + path.sep);

  it('a dictation sent to /audio-to-text: the upload and its WAV conversion stay in the scratch space', async () => {
    const m = multipartAudio(0, makeWebm(work, 'dictation', 1));
    // The same form with the field the route reads.
    const payload = Buffer.from(m.payload.toString('latin1').replace('name="audio_file"', 'name="audio"'), 'latin1');
    const created = await createdInTmpdir(async () => {
      const res = await t.app.inject({ method: 'POST', url: '/audio-to-text', headers: { ...headers, ...m.headers }, payload });
      expect(res.statusCode).toBe(200);
      expect(res.json().text).toBe('the patient reports chest pain');
    });
    expect(created).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(inScratch(seen[0]!.wav)).toBe(true);
    expect(seen[0]!.existed).toBe(true);
    expect(seen[0]!.tmpdirEntries).toEqual([]);
    expect(scratchEntries()).toEqual([]);
  });

  it('an audio part transcribed by the worker with whisper: its decrypted copy and WAV stay in the scratch space', async () => {
    const session = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session;
    const m = multipartAudio(0, makeWebm(work, 'part', 1));
    const created = await createdInTmpdir(async () => {
      const up = await t.app.inject({
        method: 'POST',
        url: `/v1/consultation_sessions/${session.id}/audios`,
        headers: { ...headers, ...m.headers },
        payload: m.payload,
      });
      expect(up.statusCode).toBe(201);
      await t.ctx.transcriptionQueue.drain();
    });
    expect(created).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(inScratch(seen[1]!.wav)).toBe(true);
    expect(seen[1]!.tmpdirEntries).toEqual([]);
    expect(existsSync(seen[1]!.wav)).toBe(false);
    expect(scratchEntries()).toEqual([]);
  });

  it.skipIf(!ocrAvailable())('a scanned PDF read by OCR: its page images stay in the scratch space', async () => {
    const space = (await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'Scratch' } } })).json()
      .research_space;
    const pdf = scannedRecordPdf(['Clinical report', 'Type 2 diabetes mellitus since 2012.']);
    const boundary = '----cn-scratch';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const created = await createdInTmpdir(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/research_spaces/${space.id}/patients`,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode).toBe(201);
      await t.ctx.ocrQueue.drain();
    });
    expect(created).toEqual([]);
    expect(scratchEntries()).toEqual([]);

    // Called directly, the pages go to the folder it is given, which is left as it was.
    const given = newDir('cn-ocr-work-');
    const file = path.join(work, 'scan.pdf');
    writeFileSync(file, pdf);
    let text = '';
    const direct = await createdInTmpdir(async () => {
      text = await ocrPdf(file, given, 'en');
    });
    expect(text).toMatch(/diabetes/i);
    expect(direct).toEqual([]);
    expect(readdirSync(given)).toEqual([]);
  });
});
