/**
 * The restore drill: a clinic's data (accounts, an organization, consultations with audio and documents, a
 * research space with a patient PDF, a custom-document example, the audit log) is backed up, the database and
 * the data folder are replaced by empty ones, the backup is restored, and every row and every blob is the same.
 * Then a consultation is deleted as the retention sweep deletes it, and a new backup holds none of it.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDIT_KEY_FILE, auditKeyOf, readAuditKeysFromFile } from '../audit/audit-key.js';
import { verifyAuditChain } from '../audit/audit-store.js';
import type { Database } from '../db/client.js';
import { audioChunks, consultationSessions, generatedDocuments, users } from '../db/schema.js';
import { sweepExpiredConsultations } from '../jobs/retention.js';
import { multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createOrganizationInvite, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import type { EncryptedBlobStore } from '../storage/encrypted-blob-store.js';
import { KEY_RING_FILE, readKeysFromFile } from '../storage/master-keys.js';
import { textRecordPdf } from '../../../tests/fixtures/patient-records.js';
import { listTables, rowsOf } from './backup-catalog.js';
import { readBackupRecords as backupRecords, recordOf, writeBackupFile } from '../test-support/backup-files.js';
import { restoreBackup } from './backup-restore.js';
import { runCommand } from './commands.js';

const KEPT = 'KEPT-MARKER-Heliodoro-4410';
const DELETED = 'DELETED-MARKER-Filomena-9902';

const work = mkdtempSync(path.join(tmpdir(), 'cn-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const store = (t: TestApp) => t.ctx.blobs as EncryptedBlobStore;
const engine = { info: { engine: 'local' as const, languages: ['en'] }, transcribe: async () => 'the patient describes a dry cough' };

/** Every row of every table, as PostgreSQL renders it, in primary-key order. */
async function tableRows(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await listTables(db)) {
    const order = table.primaryKey.length
      ? sql` ORDER BY ${sql.join(
          table.primaryKey.map((c) => sql.identifier(c)),
          sql`, `,
        )}`
      : sql``;
    const rows = await rowsOf<{ j: string }>(db, sql`SELECT row_to_json(t)::text AS j FROM ${sql.identifier(table.name)} AS t${order}`);
    out[table.name] = rows.map((r) => r.j);
    // Without a primary key the order is the storage's: compare as a sorted list.
    if (!table.primaryKey.length) out[table.name]!.sort();
  }
  return out;
}

async function storedBlobs(s: EncryptedBlobStore): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const key of s.list()) out.set(key, (await s.driver.get(key))!);
  return out;
}

/** Where each record of a decompressed backup lies: its head from `start`, its data from `dataStart` to `dataEnd`. */
function recordSpans(raw: Buffer) {
  const spans: { kind: string; start: number; dataStart: number; dataEnd: number }[] = [];
  for (let at = 10; at < raw.length; ) {
    const nameLength = raw.readUInt32BE(at + 1);
    const dataStart = at + 5 + nameLength + 8;
    const dataEnd = dataStart + Number(raw.readBigUInt64BE(at + 5 + nameLength));
    spans.push({ kind: raw.toString('latin1', at, at + 1), start: at, dataStart, dataEnd });
    at = dataEnd;
  }
  return spans;
}

function form(field: string, name: string, type: string, data: Buffer, fields: Record<string, string> = {}) {
  const boundary = '----cn-backup';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function wavWith(title: string, frequency: number): Buffer {
  const file = path.join(work, `${frequency}.wav`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${frequency}:d=1`, '-metadata', `title=${title}`, file]);
  return readFileSync(file);
}

let source: TestApp;
const clinic = { email: '', password: 'secret-pass', kept: '', deleted: '', pdfUrl: '', keptAudio: Buffer.alloc(0) as Buffer, keptAudioId: '' };

async function upload(t: TestApp, headers: Record<string, string>, id: string, order: number, data: Buffer) {
  const m = multipartAudio(order, data, 'audio/wav');
  const res = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
  expect(res.statusCode).toBe(201);
  return res.json().audio.id as string;
}

async function waitForDocuments(t: TestApp, sessionId: string) {
  for (let i = 0; i < 200; i++) {
    const rows = await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, sessionId));
    if (rows.length && rows.every((r) => r.status !== 'generating')) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('documents not generated');
}

beforeAll(async () => {
  source = await createTestApp({}, { transcriber: engine });
  const { organizationId } = await createOrganizationInvite(source, 'admin@clinic.test', 'Clínica do Mar');
  const admin = await createUser(source, { name: 'Dra. Inês Faria', organizationId, organizationRole: 'admin', language: 'en' });
  await createUser(source, { name: 'Dr. Paulo Sá', organizationId, organizationRole: 'member' });
  clinic.email = admin.email;
  const headers = bearer(await login(source, admin.email, admin.password));

  // A consultation that stays (still recording) and one that is finished, with documents, and later deleted.
  const start = async () =>
    (await source.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })).json()
      .consultation_session.id as string;
  clinic.deleted = await start();
  await upload(source, headers, clinic.deleted, 0, wavWith(DELETED, 300));
  await upload(source, headers, clinic.deleted, 1, wavWith(DELETED, 350));
  await source.ctx.transcriptionQueue.drain();
  await source.app.inject({
    method: 'PUT',
    url: `/v1/consultation_sessions/${clinic.deleted}`,
    headers,
    payload: { user_inputs: [{ processor_input_id: 'bloodpressure', value: `${DELETED} 150/95` }] },
  });
  await source.app.inject({
    method: 'PUT',
    url: `/v1/consultation_sessions/${clinic.deleted}/transcription`,
    headers,
    payload: { transcription: `Dry cough. ${DELETED}.` },
  });
  expect((await source.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${clinic.deleted}/finish`, headers })).statusCode).toBeLessThan(300);
  const docs = await waitForDocuments(source, clinic.deleted);
  expect(docs.some((d) => d.text.includes(DELETED))).toBe(true);

  clinic.kept = await start();
  clinic.keptAudio = wavWith(KEPT, 500);
  clinic.keptAudioId = await upload(source, headers, clinic.kept, 0, clinic.keptAudio);
  await source.ctx.transcriptionQueue.drain();

  const space = (await source.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'Pneumologia' } } })).json()
    .research_space;
  const record = form('files', 'record.pdf', 'application/pdf', textRecordPdf([`Patient ${KEPT}`, 'COPD GOLD 2.']), { label: 'P-7' });
  const patient = (
    await source.app.inject({
      method: 'POST',
      url: `/v1/research_spaces/${space.id}/patients`,
      headers: { ...headers, ...record.headers },
      payload: record.payload,
    })
  ).json().patient;
  clinic.pdfUrl = `/v1/research_spaces/${space.id}/patients/${patient.id}/files/${patient.files[0].id}`;

  const request = (
    await source.app.inject({
      method: 'POST',
      url: '/v1/custom_document_requests',
      headers,
      payload: { custom_document_request: { title: 'Letter', sections: [], other_comments: '' } },
    })
  ).json().custom_document_request;
  const example = form('file', 'example.txt', 'text/plain', Buffer.from(`Example about ${KEPT}.`));
  expect(
    (
      await source.app.inject({
        method: 'POST',
        url: `/v1/custom_document_requests/${request.id}/examples`,
        headers: { ...headers, ...example.headers },
        payload: example.payload,
      })
    ).statusCode,
  ).toBe(201);
}, 120_000);
afterAll(() => source?.close());

describe('backup and restore', () => {
  let first: string;
  let rowsBefore: Record<string, string[]>;
  let blobsBefore: Map<string, Buffer>;

  it('backs up every table and every blob, still encrypted, into one 0600 file', async () => {
    rowsBefore = await tableRows(source.ctx.db);
    blobsBefore = await storedBlobs(store(source));
    expect(blobsBefore.size).toBe(5); // three audio parts, a patient PDF, an example
    first = path.join(work, 'first.cnbackup');
    const lines = await runCommand(source.ctx.db, source.ctx.config, 'backup', { to: first });
    expect(lines[0]).toMatch(/^Backup written to .*first\.cnbackup .*5 blobs \(still encrypted\)/);
    expect(lines.join('\n')).toContain(store(source).keys.current().id);
    expect(statSync(first).mode & 0o777).toBe(0o600);

    const records = await backupRecords(first);
    expect(records[0]!.kind).toBe('M');
    expect(records.map((r) => r.kind).slice(-2)).toEqual(['E', 'S']);
    expect(records.at(-1)!.name).toBe(source.app.auditLog.keys.current().id);
    const manifest = JSON.parse(records[0]!.data.toString());
    expect(manifest.tables.map((t: { name: string }) => t.name)).toEqual((await listTables(source.ctx.db)).map((t) => t.name));
    // Parents before children: users before consultation_sessions before audio_chunks.
    const order = manifest.tables.map((t: { name: string }) => t.name);
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('consultation_sessions'));
    expect(order.indexOf('consultation_sessions')).toBeLessThan(order.indexOf('audio_chunks'));
    const blobs = records.filter((r) => r.kind === 'B');
    for (const b of blobs) expect(b.data).toEqual(blobsBefore.get(b.name));
    const raw = readFileSync(first);
    const unzipped = Buffer.concat(records.map((r) => r.data));
    // Blobs are copied as stored: the audio's marker is not in the file; the database's text is (compressed).
    expect(blobs.some((b) => b.data.includes(Buffer.from(KEPT)))).toBe(false);
    expect(unzipped.includes(Buffer.from(DELETED))).toBe(true);
    expect(raw.includes(Buffer.from(DELETED))).toBe(false);
    expect(JSON.parse(recordOf(records, 'E').data.toString()).master_key_ids).toEqual([store(source).keys.current().id]);
  });

  it('restores into an empty database and data folder: every row and every blob identical, and the clinic works', async () => {
    const target = await createTestApp({}, { transcriber: engine });
    try {
      // Without the audit key the backup's audit log cannot be verified: refused before anything is written.
      const keyFile = path.join(source.dataDir, KEY_RING_FILE);
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: first, 'key-file': keyFile })).rejects.toThrow(
        `file is sealed with audit key ${source.app.auditLog.keys.current().id}, which this server does not have`,
      );
      expect((await target.ctx.db.select().from(users)).length).toBe(0);
      const lines = await runCommand(target.ctx.db, target.ctx.config, 'restore', {
        from: first,
        'key-file': keyFile,
        'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE),
      });
      expect(lines[0]).toMatch(/^Restored \d+ rows of \d+ tables and 5 blobs .*; its seal and its audit log verified\./);
      expect(lines.join('\n')).toContain(`Imported audit key(s) ${source.app.auditLog.keys.current().id}`);

      const after = await tableRows(target.ctx.db);
      for (const [table, rows] of Object.entries(rowsBefore)) {
        if (table === 'audit_events') continue;
        expect(after[table], table).toEqual(rows);
      }
      // The audit log: the source's events, then the restore's own, still one unbroken chain.
      expect(after.audit_events!.slice(0, rowsBefore.audit_events!.length)).toEqual(rowsBefore.audit_events);
      expect(after.audit_events!.length).toBe(rowsBefore.audit_events!.length + 1);
      expect((await verifyAuditChain(target.ctx.db, target.app.auditLog.keys)).ok).toBe(true);

      const blobsAfter = await storedBlobs(store(target));
      expect([...blobsAfter.keys()].sort()).toEqual([...blobsBefore.keys()].sort());
      for (const [key, bytes] of blobsBefore) {
        expect(blobsAfter.get(key), key).toEqual(bytes);
        expect(await store(target).readBuffer(key)).toEqual(await store(source).readBuffer(key));
      }

      // The same clinician signs in on the restored server and finds her audio, documents and patient PDF.
      const headers = bearer(await login(target, clinic.email, clinic.password));
      const audio = await target.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${clinic.kept}/audios/${clinic.keptAudioId}`, headers });
      expect(audio.rawPayload).toEqual(clinic.keptAudio);
      const pdf = await target.app.inject({ method: 'GET', url: clinic.pdfUrl, headers });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.includes(Buffer.from(KEPT))).toBe(true);
      const doc = await target.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${clinic.deleted}/generated_documents/main`, headers });
      expect(doc.json().generated_document.text).toContain(DELETED);
      // Sequences moved on: a new audit event (this sign-in, the reads) got a fresh id, the chain still holds.
      expect((await verifyAuditChain(target.ctx.db, target.app.auditLog.keys)).ok).toBe(true);

      // A second restore into the now full database is refused.
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: first })).rejects.toThrow(/not empty/);
      // --force cannot empty an append-only audit log that already has events.
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: first, force: true })).rejects.toThrow(/append-only/);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('--force replaces what a database holds (without audit events), blobs included', async () => {
    const target = await createTestApp({}, { transcriber: engine });
    try {
      const stray = await createUser(target, { name: 'Dr. Stray' });
      await store(target).put('sessions/stray/000000.webm', Buffer.from('stray audio'));
      // (Called directly: through the command, even a refusal adds an audit event, which --force cannot remove.)
      store(target).keys.importKeys(readKeysFromFile(path.join(source.dataDir, KEY_RING_FILE)));
      target.app.auditLog.keys.importKeys(readAuditKeysFromFile(path.join(source.dataDir, AUDIT_KEY_FILE)));
      await expect(restoreBackup(target.ctx.db, store(target), target.app.auditLog.keys, { file: first, force: false })).rejects.toThrow(/not empty \(users/);
      const lines = await runCommand(target.ctx.db, target.ctx.config, 'restore', { from: first, force: true });
      expect(lines).toContain('Removed 1 blobs that were not in the backup.');
      expect((await target.ctx.db.select().from(users).where(eq(users.id, stray.id))).length).toBe(0);
      const after = await tableRows(target.ctx.db);
      for (const [table, rows] of Object.entries(rowsBefore)) if (table !== 'audit_events') expect(after[table], table).toEqual(rows);
      expect([...(await storedBlobs(store(target))).keys()].sort()).toEqual([...blobsBefore.keys()].sort());
    } finally {
      await target.close();
    }
  }, 60_000);

  it('refuses a backup whose audit log was changed, even with every key', async () => {
    // A copy of the backup in which one audit event reads "refused" instead of "allowed", its hash left alone.
    const records = await backupRecords(first);
    let changed = false;
    const tampered = records.map((r) => {
      if (changed || r.kind !== 'R' || r.name !== 'audit_events') return r;
      const rows = r.data
        .toString('utf8')
        .split('\n')
        .map((line) => JSON.parse(line) as { status_code: number | null; outcome: string });
      const victim = rows.find((row) => row.status_code === 200)!;
      Object.assign(victim, { status_code: 404, outcome: 'failure' });
      changed = true;
      return { ...r, data: Buffer.from(rows.map((row) => JSON.stringify(row)).join('\n')) };
    });
    expect(changed).toBe(true);
    const file = path.join(work, 'tampered.cnbackup');
    // Sealed anew with the audit key itself: the chain still tells the event was changed.
    await writeBackupFile(file, tampered, source.app.auditLog.keys.current());

    const target = await createTestApp();
    try {
      const keys = { 'key-file': path.join(source.dataDir, KEY_RING_FILE), 'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE) };
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: file, ...keys })).rejects.toThrow(
        /The backup's audit log does not verify, so it is not restored\. The audit log is broken at event \d+: its fields are not those its hash was made from/,
      );
      expect((await target.ctx.db.select().from(users)).length).toBe(0);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('refuses a backup changed anywhere, byte by byte, by someone without the key, even restored with every key', async () => {
    // The file as its bytes: each case changes some of them and leaves the rest (and the seal) as written.
    const raw = gunzipSync(readFileSync(first));
    const spans = recordSpans(raw);
    const span = (kind: string, test: (data: Buffer) => boolean = () => true) =>
      spans.find((r) => r.kind === kind && test(raw.subarray(r.dataStart, r.dataEnd)))!;
    const usersRows = span('R', (d) => d.includes(Buffer.from('"password_hash"')) && d.includes(Buffer.from(clinic.email)));
    const rows = raw
      .subarray(usersRows.dataStart, usersRows.dataEnd)
      .toString('utf8')
      .split('\n')
      .map((l) => JSON.parse(l) as { email: string; password_hash: string; server_admin: boolean });
    const victim = rows.find((r) => r.email === clinic.email)!;
    const attacker = rows.find((r) => r.email !== clinic.email && r.password_hash.length === victim.password_hash.length)!;
    const replaced = (from: string | Buffer, to: string | Buffer, within = span('R', (d) => d.includes(Buffer.from(from)))) => {
      const out = Buffer.from(raw);
      const at = out.indexOf(Buffer.from(from), within.dataStart);
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(within.dataEnd);
      Buffer.from(to).copy(out, at);
      return out;
    };
    const flipped = (offset: number) => {
      const out = Buffer.from(raw);
      out[offset]! ^= 0x01;
      return out;
    };
    const blob = span('B');
    const manifest = span('M');
    const end = span('E');
    const seal = span('S');
    const [a, b] = spans.filter((r) => r.kind === 'R').slice(0, 2);
    const cases: [string, Buffer, RegExp][] = [
      // The attack of the audit: a known password hash copied onto the organization's admin, who is made a server admin.
      ['a password hash copied onto another account', replaced(victim.password_hash, attacker.password_hash, usersRows), /does not match its seal/],
      ['a server-admin flag set', replaced('"server_admin":false', '"server_admin":true ', usersRows), /does not match its seal/],
      ['a transcript rewritten', replaced('the patient describes a dry cough', 'the patient describes a wet cough'), /does not match its seal/],
      ['a byte of a blob', flipped(blob.dataStart + 40), /does not match its seal/],
      ['the manifest', flipped(manifest.dataEnd - 3), /does not match its seal/],
      ['the end record', flipped(end.dataStart + 2), /does not match its seal|damaged/],
      [
        'two records swapped',
        Buffer.concat([raw.subarray(0, a!.start), raw.subarray(b!.start, b!.dataEnd), raw.subarray(a!.start, a!.dataEnd), raw.subarray(b!.dataEnd)]),
        /does not match its seal/,
      ],
      ['a blob left out', Buffer.concat([raw.subarray(0, blob.start), raw.subarray(blob.dataEnd)]), /does not match its seal/],
      ['a record added twice', Buffer.concat([raw.subarray(0, blob.dataEnd), raw.subarray(blob.start)]), /does not match its seal/],
      ['the seal itself', flipped(seal.dataStart + 5), /does not match its seal/],
      ['the seal cut off', raw.subarray(0, seal.start), /has no seal/],
      ["the seal's key id", flipped(seal.start + 6), /file is sealed with audit key .*which this server does not have/],
    ];
    // And one sealed whole, but with a key of the crafter's own.
    const crafted = path.join(work, 'own-key.cnbackup');
    await writeBackupFile(crafted, await backupRecords(first), auditKeyOf(randomBytes(32)));
    const target = await createTestApp();
    try {
      const keys = { 'key-file': path.join(source.dataDir, KEY_RING_FILE), 'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE) };
      for (const [what, bytes, message] of cases) {
        const file = path.join(work, 'changed.cnbackup');
        writeFileSync(file, gzipSync(bytes));
        await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: file, ...keys }), what).rejects.toThrow(message);
      }
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: crafted, ...keys })).rejects.toThrow(
        /file is sealed with audit key .*which this server does not have/,
      );
      // A backup of the earlier format, which had no seal, is refused as one: nothing in it can be checked.
      const old = Buffer.from(raw.subarray(0, seal.start));
      old.writeUInt16BE(1, 8);
      writeFileSync(path.join(work, 'old.cnbackup'), gzipSync(old));
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: path.join(work, 'old.cnbackup'), ...keys })).rejects.toThrow(
        /earlier version of the server, which did not seal its backups/,
      );
      expect(await target.ctx.db.select().from(users)).toEqual([]);
      const left: string[] = [];
      for await (const k of store(target).list()) left.push(k);
      expect(left).toEqual([]);
      // Keys given to a refused restore are not kept: a later backup sealed with them would otherwise pass unasked.
      expect(readAuditKeysFromFile(path.join(target.dataDir, AUDIT_KEY_FILE)).map((k) => k.id)).toEqual([target.app.auditLog.keys.current().id]);
      expect(readKeysFromFile(path.join(target.dataDir, KEY_RING_FILE)).map((k) => k.id)).toEqual([store(target).keys.current().id]);
      // The untouched file restores with the same keys.
      writeFileSync(path.join(work, 'unchanged.cnbackup'), gzipSync(raw));
      await runCommand(target.ctx.db, target.ctx.config, 'restore', { from: path.join(work, 'unchanged.cnbackup'), ...keys });
      expect((await target.ctx.db.select().from(users)).length).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  }, 120_000);

  it('refuses a file changed between the check and the restore, and leaves the database as it was', async () => {
    const file = path.join(work, 'changing.cnbackup');
    writeFileSync(file, readFileSync(first));
    const target = await createTestApp();
    try {
      store(target).keys.importKeys(readKeysFromFile(path.join(source.dataDir, KEY_RING_FILE)));
      target.app.auditLog.keys.importKeys(readAuditKeysFromFile(path.join(source.dataDir, AUDIT_KEY_FILE)));
      // The master keys are looked up once the file has been checked whole, before it is read again to restore.
      const find = store(target).keys.find.bind(store(target).keys);
      const spy = vi.spyOn(store(target).keys, 'find').mockImplementation((id) => {
        const raw = gunzipSync(readFileSync(first));
        const at = raw.indexOf(Buffer.from('the patient describes a dry cough'));
        Buffer.from('the patient describes a wet cough').copy(raw, at);
        writeFileSync(file, gzipSync(raw));
        return find(id);
      });
      await expect(restoreBackup(target.ctx.db, store(target), target.app.auditLog.keys, { file, force: false })).rejects.toThrow(
        /changed while it was being restored: the database was left as it was/,
      );
      expect(spy).toHaveBeenCalled();
      spy.mockRestore();
      expect(await target.ctx.db.select().from(users)).toEqual([]);
      // The blobs written before the change was found are gone again: the store is as the restore found it.
      const left: string[] = [];
      for await (const k of store(target).list()) left.push(k);
      expect(left).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('refuses a damaged or truncated backup before touching anything', async () => {
    const target = await createTestApp();
    try {
      // Without the key the blobs were encrypted with (the seal's key given).
      await expect(
        runCommand(target.ctx.db, target.ctx.config, 'restore', { from: first, 'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE) }),
      ).rejects.toThrow(/need master key/);
      const whole = readFileSync(first);
      const cut = path.join(work, 'cut.cnbackup');
      writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: cut })).rejects.toThrow(/truncated/);
      const garbage = path.join(work, 'garbage.cnbackup');
      writeFileSync(garbage, 'not a backup at all');
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: garbage })).rejects.toThrow(/damaged|not a backup/);
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: path.join(work, 'missing.cnbackup') })).rejects.toThrow(
        /no such file|There is no file/,
      );
      expect((await target.ctx.db.select().from(users)).length).toBe(0);
      // Never into the database of a running server (the command reached it through its admin socket).
      writeFileSync(path.join(target.dataDir, 'db.lock'), JSON.stringify({ pid: process.pid, port: 8080, adminSocket: true }));
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: first })).rejects.toThrow(/A server is running on this data folder/);
      rmSync(path.join(target.dataDir, 'db.lock'));
      // A backup is never written over by a half-made one: the target folder must exist, nothing is left behind.
      await expect(runCommand(target.ctx.db, target.ctx.config, 'backup', { to: path.join(work, 'no-such-folder', 'b.cnbackup') })).rejects.toThrow(
        /no such file or folder/,
      );
    } finally {
      await target.close();
    }
  }, 60_000);

  it('a consultation deleted by the retention sweep is in no later backup: not its text, not its audio', async () => {
    const deletedBlobs = [...blobsBefore].filter(([key]) => key.startsWith(`sessions/${clinic.deleted}/`));
    expect(deletedBlobs).toHaveLength(2);
    const [finished] = await source.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, clinic.deleted));
    const result = await sweepExpiredConsultations(source.ctx.db, source.ctx.blobs, { now: new Date(finished!.expiresAt!.getTime() + 1000) });
    expect(result.deleted).toBe(1);
    expect(await source.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, clinic.deleted))).toEqual([]);

    const second = path.join(work, 'second.cnbackup');
    await runCommand(source.ctx.db, source.ctx.config, 'backup', { to: second });
    const records = await backupRecords(second);
    const content = Buffer.concat(records.map((r) => Buffer.concat([Buffer.from(r.name), r.data])));
    expect(content.includes(Buffer.from(DELETED))).toBe(false);
    expect(content.includes(Buffer.from(clinic.deleted))).toBe(
      records.some((r) => r.kind === 'R' && r.name === 'audit_events' && r.data.includes(Buffer.from(clinic.deleted))),
    );
    expect(
      records
        .filter((r) => r.kind === 'B')
        .map((r) => r.name)
        .filter((k) => k.includes(clinic.deleted)),
    ).toEqual([]);
    for (const [, bytes] of deletedBlobs) expect(content.includes(bytes.subarray(bytes.length - 64))).toBe(false);
    // What stays is still there.
    expect(records.some((r) => r.kind === 'B' && r.name.startsWith(`sessions/${clinic.kept}/`))).toBe(true);
    expect(content.includes(Buffer.from(KEPT))).toBe(true);
  });
});
