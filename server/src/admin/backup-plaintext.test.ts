/**
 * Backups and files without encryption (PGlite and PostgreSQL). A backup carries plaintext only from a data folder
 * whose migration from before encryption is pending, and says so in its manifest; a restore accepts plaintext only
 * from such a backup, only when the backup's own rows vouch for it (size, SHA-256), and encrypts it as it goes.
 * A crafted backup (plaintext under any name, a manifest that lies) is refused before anything is written.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_KEY_FILE, readAuditKeysFromFile } from '../audit/audit-key.js';
import { audioChunks, users } from '../db/schema.js';
import { storedKeyId } from '../storage/blob-encryption.js';
import type { EncryptedBlobStore } from '../storage/encrypted-blob-store.js';
import { ENCRYPTION_STATE_FILE } from '../storage/plaintext-migration.js';
import { multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { readBackupRecords as readBackup, recordOf, writeBackupFile } from '../test-support/backup-files.js';
import type { BackupRecord } from './backup-format.js';
import { runCommand } from './commands.js';

const MARKER = 'BACKUP-PLAINTEXT-MARKER-Teodora-5127';
const engine = { info: { engine: 'local' as const, languages: ['en'] }, transcribe: async () => 'words' };
let source: TestApp;
let work: string;
let wav: Buffer;
const part = { sessionId: '', audioId: '', blobKey: '', email: '', password: '' };

const manifestOf = (records: BackupRecord[]) => JSON.parse(recordOf(records, 'M').data.toString()) as Record<string, unknown>;
const withManifest = (records: BackupRecord[], change: Record<string, unknown>): BackupRecord[] => [
  { ...records[0]!, data: Buffer.from(JSON.stringify({ ...manifestOf(records), ...change })) },
  ...records.slice(1),
];
const withBlob = (records: BackupRecord[], name: string, data: Buffer, newName = name): BackupRecord[] =>
  records.map((r) => (r.kind === 'B' && r.name === name ? { kind: 'B', name: newName, data } : r));

const setPending = (t: TestApp) => {
  const file = path.join(t.dataDir, ENCRYPTION_STATE_FILE);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), legacy_plaintext: 'pending' }));
};
const blobFile = (t: TestApp) => path.join(t.dataDir, 'files', part.blobKey);

/**
 * Crafted as by someone holding the source's audit key, so the checks behind the seal are reached (without it the
 * seal refuses them first: backup.test.ts).
 */
const writeBackup = (file: string, records: BackupRecord[]) =>
  writeBackupFile(file, records, readAuditKeysFromFile(path.join(source.dataDir, AUDIT_KEY_FILE))[0]!);

/** A restore into a new, empty server (given the source's audit key) is refused with `message`, and nothing was written. */
async function expectRefusedRestore(file: string, message: RegExp) {
  const target = await createTestApp({}, { transcriber: engine });
  try {
    await expect(
      runCommand(target.ctx.db, target.ctx.config, 'restore', { from: file, 'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE) }),
    ).rejects.toThrow(message);
    expect(await target.ctx.db.select().from(users)).toEqual([]);
    const left: string[] = [];
    for await (const k of (target.ctx.blobs as EncryptedBlobStore).list()) left.push(k);
    expect(left).toEqual([]);
  } finally {
    await target.close();
  }
}

beforeAll(async () => {
  source = await createTestApp({}, { transcriber: engine });
  work = mkdtempSync(path.join(tmpdir(), 'cn-backup-plain-'));
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=f=330:d=1',
    '-metadata',
    `title=${MARKER}`,
    path.join(work, 'part.wav'),
  ]);
  wav = readFileSync(path.join(work, 'part.wav'));
  const u = await createUser(source, { language: 'en' });
  Object.assign(part, { email: u.email, password: u.password });
  const headers = bearer(await login(source, u.email, u.password));
  part.sessionId = (
    await source.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  const m = multipartAudio(0, wav, 'audio/wav');
  const up = await source.app.inject({
    method: 'POST',
    url: `/v1/consultation_sessions/${part.sessionId}/audios`,
    headers: { ...headers, ...m.headers },
    payload: m.payload,
  });
  expect(up.statusCode).toBe(201);
  part.audioId = up.json().audio.id;
  await source.ctx.transcriptionQueue.drain();
  part.blobKey = (await source.ctx.db.select().from(audioChunks).where(eq(audioChunks.id, part.audioId)))[0]!.blobKey;
}, 60_000);
afterAll(async () => {
  await source?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('plaintext in backups', () => {
  let encryptedBackup: string;

  it('from a folder that accepts no plaintext, an unencrypted file is left out of the backup and named', async () => {
    encryptedBackup = path.join(work, 'encrypted.cnbackup');
    await runCommand(source.ctx.db, source.ctx.config, 'backup', { to: encryptedBackup });
    expect(manifestOf(await readBackup(encryptedBackup)).plaintext_migration_pending).toBe(false);

    const genuine = readFileSync(blobFile(source));
    writeFileSync(blobFile(source), wav);
    const file = path.join(work, 'left-out.cnbackup');
    const lines = await runCommand(source.ctx.db, source.ctx.config, 'backup', { to: file });
    expect(lines.join('\n')).toContain(`1 unencrypted files were left out (${part.blobKey})`);
    const records = await readBackup(file);
    expect(records.filter((r) => r.kind === 'B')).toEqual([]);
    expect(JSON.parse(recordOf(records, 'E').data.toString())).toMatchObject({ blobs: 0, refused_blobs: 1, plaintext_blobs: 0 });
    writeFileSync(blobFile(source), genuine);
  });

  it("a crafted backup with plaintext under a blob's name is refused, even with the genuine bytes", async () => {
    const records = await readBackup(encryptedBackup);
    const crafted = path.join(work, 'crafted.cnbackup');
    await writeBackup(crafted, withBlob(records, part.blobKey, wav));
    await expectRefusedRestore(crafted, /holds 1 unencrypted file\(s\) .* was made from a data folder that accepts none/);
    // A manifest claiming a pending migration does not make forged bytes acceptable: the backup's rows decide.
    const forged = Buffer.from(wav);
    forged.fill(0x55, 200, 400);
    const lying = path.join(work, 'lying.cnbackup');
    await writeBackup(lying, withBlob(withManifest(records, { plaintext_migration_pending: true }), part.blobKey, forged));
    await expectRefusedRestore(lying, new RegExp(`${part.blobKey} is not encrypted and its SHA-256 differs .*Nothing was restored`));
    const renamed = path.join(work, 'renamed.cnbackup');
    await writeBackup(renamed, withBlob(withManifest(records, { plaintext_migration_pending: true }), part.blobKey, wav, 'sessions/other/000000.wav'));
    await expectRefusedRestore(renamed, /unencrypted file sessions\/other\/000000\.wav is named by none of its rows/);
  }, 120_000);

  it('from a folder whose migration is pending, plaintext is backed up as it is and encrypted by the restore', async () => {
    setPending(source);
    writeFileSync(blobFile(source), wav);
    const file = path.join(work, 'pending.cnbackup');
    const lines = await runCommand(source.ctx.db, source.ctx.config, 'backup', { to: file });
    expect(lines.join('\n')).toContain('1 blobs predate encryption and are copied as plaintext');
    const records = await readBackup(file);
    expect(manifestOf(records).plaintext_migration_pending).toBe(true);
    expect(records.find((r) => r.kind === 'B' && r.name === part.blobKey)!.data).toEqual(wav);

    const target = await createTestApp({}, { transcriber: engine });
    try {
      // The backup's audit events are verified with the source's audit key, saved with the backup.
      const restored = await runCommand(target.ctx.db, target.ctx.config, 'restore', {
        from: file,
        'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE),
      });
      expect(restored).toContain('1 blobs stored before encryption were checked against their rows and encrypted.');
      const stored = readFileSync(blobFile(target));
      expect(storedKeyId(stored)).toBe((target.ctx.blobs as EncryptedBlobStore).keys.current().id);
      expect(stored.includes(Buffer.from(MARKER))).toBe(false);
      // The restored folder holds no plaintext and accepts none.
      expect(JSON.parse(readFileSync(path.join(target.dataDir, ENCRYPTION_STATE_FILE), 'utf8')).legacy_plaintext).toBe('none');
      const headers = bearer(await login(target, part.email, part.password));
      const audio = await target.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${part.sessionId}/audios/${part.audioId}`, headers });
      expect(audio.rawPayload).toEqual(wav);
    } finally {
      await target.close();
    }
  }, 60_000);
});
