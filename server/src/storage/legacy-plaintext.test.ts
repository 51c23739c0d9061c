/**
 * Files from before encryption, through the real server and admin commands (PGlite and PostgreSQL): served while
 * the folder's migration is pending and only when they match what the database recorded of them (size, SHA-256);
 * encrypted by rotate-key, which then closes the migration; refused from then on, as in any new data folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../admin/commands.js';
import { audioChunks } from '../db/schema.js';
import { multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { storedKeyId } from './blob-encryption.js';
import { ENCRYPTION_STATE_FILE } from './plaintext-migration.js';

const MARKER = 'LEGACY-MARKER-Ermelinda-3318';
let t: TestApp;
let work: string;
let headers: Record<string, string>;
let wav: Buffer;
const part = { sessionId: '', audioId: '', blobKey: '' };

beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'words' } });
  work = mkdtempSync(path.join(tmpdir(), 'cn-legacy-'));
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
  part.sessionId = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  const m = multipartAudio(0, wav, 'audio/wav');
  const up = await t.app.inject({
    method: 'POST',
    url: `/v1/consultation_sessions/${part.sessionId}/audios`,
    headers: { ...headers, ...m.headers },
    payload: m.payload,
  });
  expect(up.statusCode).toBe(201);
  part.audioId = up.json().audio.id;
  await t.ctx.transcriptionQueue.drain();
  const [row] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.id, part.audioId));
  part.blobKey = row!.blobKey;
  expect(row!.contentSha256).toMatch(/^[0-9a-f]{64}$/);
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const blobFile = () => path.join(t.dataDir, 'files', part.blobKey);
const stateFile = () => path.join(t.dataDir, ENCRYPTION_STATE_FILE);
const download = () => t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${part.sessionId}/audios/${part.audioId}`, headers });
const legacyState = () => JSON.parse(readFileSync(stateFile(), 'utf8')).legacy_plaintext as string;

describe('plaintext files through the server', () => {
  it('a new data folder serves no plaintext file, not even the genuine bytes', async () => {
    expect(legacyState()).toBe('none');
    writeFileSync(blobFile(), wav);
    const res = await download();
    expect(res.statusCode).toBe(500);
    expect(res.rawPayload.includes(Buffer.from(MARKER))).toBe(false);
    expect(t.logs.join('\n')).toContain('is not encrypted, and this data folder accepts no unencrypted files');
  });

  it('while the migration is pending: the genuine file is served, a swapped one (same size) is refused by its SHA-256', async () => {
    // As a folder from before encryption is at its first start with this version.
    const state = JSON.parse(readFileSync(stateFile(), 'utf8'));
    writeFileSync(stateFile(), JSON.stringify({ ...state, legacy_plaintext: 'pending' }));
    expect((await download()).rawPayload).toEqual(wav);

    const swapped = Buffer.from(wav);
    swapped.fill(0x55, 200, 400);
    writeFileSync(blobFile(), swapped);
    const res = await download();
    expect(res.statusCode).toBe(500);
    expect(res.rawPayload.includes(swapped.subarray(200, 400))).toBe(false);
    expect(t.logs.join('\n')).toContain('SHA-256 differs from what was recorded');
    // rotate-key refuses to encrypt it, and says which file.
    await expect(runCommand(t.ctx.db, t.ctx.config, 'rotate-key', {})).rejects.toThrow(new RegExp(`${part.blobKey}: The blob .* SHA-256 differs`));
    expect(readFileSync(blobFile())).toEqual(swapped);
    expect(legacyState()).toBe('pending');
  });

  it('rotate-key encrypts the genuine file and closes the migration: plaintext is refused from then on', async () => {
    writeFileSync(blobFile(), wav);
    const lines = await runCommand(t.ctx.db, t.ctx.config, 'rotate-key', {});
    expect(lines.join('\n')).toContain('1 plaintext blobs encrypted');
    expect(lines).toContain('Every file stored before encryption is now encrypted: unencrypted files are refused from now on.');
    expect(legacyState()).toBe('none');
    expect(storedKeyId(readFileSync(blobFile()))).not.toBe('legacy');
    expect((await download()).rawPayload).toEqual(wav);

    writeFileSync(blobFile(), wav);
    expect((await download()).statusCode).toBe(500);
    await expect(runCommand(t.ctx.db, t.ctx.config, 'rotate-key', {})).rejects.toThrow(/is not encrypted, and this data folder accepts no unencrypted files/);
    expect(readFileSync(blobFile())).toEqual(wav);
  });
});
