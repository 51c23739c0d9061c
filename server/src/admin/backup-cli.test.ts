/**
 * The backup, restore and rotate-key commands as an operator runs them: `npm run admin -- …` in a shell, with
 * DATA_DIR (and DATABASE_URL when the suite runs against PostgreSQL) and no server running.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { audioChunks } from '../db/schema.js';
import { storedKeyId } from '../storage/blob-encryption.js';
import { openBlobStore } from '../storage/encrypted-blob-store.js';
import { KEY_RING_FILE } from '../storage/master-keys.js';
import { AUDIT_KEY_FILE, openAuditKeys } from '../audit/audit-key.js';
import { verifyAuditChain } from '../audit/audit-store.js';
import { multipartAudio, makeWebm } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import type { TestApp } from '../test-support/test-app.js';
import { listTables, rowsOf } from './backup-catalog.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'cn-backup-cli-'));
const pgAdminUrl = process.env.TEST_DATABASE_URL;
const dropLater: string[] = [];

/** A new PostgreSQL database for one side of the drill (the suite's server), or undefined for PGlite. */
async function newDatabaseUrl(): Promise<string | undefined> {
  if (!pgAdminUrl) return undefined;
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  dropLater.push(name);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const { TEST_DATABASE_URL: _t, DATABASE_URL: _d, ENCRYPTION_KEY: _k, ENCRYPTION_KEY_PREVIOUS: _p, ...baseEnv } = process.env;
const side = (dataDir: string, databaseUrl: string | undefined) => ({
  dataDir,
  databaseUrl,
  env: { ...baseEnv, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
});
type Side = ReturnType<typeof side>;

const admin = (s: Side, ...args: string[]) => run('npx', ['tsx', 'server/src/admin/cli.ts', ...args], { cwd: root, env: s.env });

async function open(s: Side) {
  const config = loadConfig({
    DATA_DIR: s.dataDir,
    PUBLIC_URL: 'http://clinic.test',
    WEB_DIST: path.join(s.dataDir, 'no-web'),
    RETENTION_SWEEP_SECONDS: '0',
    LOG_LEVEL: 'silent',
    ...(s.databaseUrl ? { DATABASE_URL: s.databaseUrl } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  return { config, database };
}

async function tableRows(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await listTables(db)) {
    const order = table.primaryKey.length
      ? sql` ORDER BY ${sql.join(
          table.primaryKey.map((c) => sql.identifier(c)),
          sql`, `,
        )}`
      : sql``;
    out[table.name] = (await rowsOf<{ j: string }>(db, sql`SELECT row_to_json(t)::text AS j FROM ${sql.identifier(table.name)} AS t${order}`)).map((r) => r.j);
    if (!table.primaryKey.length) out[table.name]!.sort();
  }
  return out;
}

let source: Side;
let target: Side;
let rowsAtBackup: Record<string, string[]>;
const audio = new Map<string, Buffer>();

beforeAll(async () => {
  source = side(path.join(work, 'source'), await newDatabaseUrl());
  target = side(path.join(work, 'target'), await newDatabaseUrl());
  // The clinic's data, made through the API by a server that is then stopped.
  const { config, database } = await open(source);
  const { app, ctx } = await buildApp({
    config,
    db: database.db,
    transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'a sore throat since Monday' },
  });
  const t = { app, ctx } as TestApp;
  const u = await createUser(t, { language: 'en' });
  const headers = bearer(await login(t, u.email, u.password));
  const id = (await app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })).json()
    .consultation_session.id;
  for (const order of [0, 1]) {
    const part = makeWebm(work, `part${order}`, 1, 400 + order * 100);
    const m = multipartAudio(order, part);
    const res = await app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
    expect(res.statusCode).toBe(201);
    const [row] = await database.db.select().from(audioChunks).where(eq(audioChunks.id, res.json().audio.id));
    audio.set(row!.blobKey, part);
  }
  await ctx.transcriptionQueue.drain();
  await app.close();
  rowsAtBackup = await tableRows(database.db);
  await database.close();
}, 120_000);

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  if (!pgAdminUrl) return;
  const c = new pg.Client({ connectionString: pgAdminUrl });
  await c.connect();
  for (const name of dropLater) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
});

describe('npm run admin -- backup / restore / rotate-key', () => {
  const file = path.join(work, 'clinic.cnbackup');

  it('backup writes one 0600 file and names the key it needs', async () => {
    const { stdout } = await admin(source, 'backup', '--to', file);
    expect(stdout).toMatch(/Backup written to .*clinic\.cnbackup .*2 blobs \(still encrypted\)/);
    const keyId = JSON.parse(readFileSync(path.join(source.dataDir, KEY_RING_FILE), 'utf8')).current;
    expect(stdout).toContain(`Its blobs need master key(s): ${keyId}.`);
    expect(stdout).toContain(KEY_RING_FILE);
    const auditKeyId = openAuditKeys({ dataDir: source.dataDir }).current().id;
    expect(stdout).toContain(`The file is sealed with audit key ${auditKeyId}; its audit log with audit key(s): ${auditKeyId}.`);
    expect(stdout).toContain(`Keep a copy of ${path.join(source.dataDir, AUDIT_KEY_FILE)} with the encryption keys`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 90_000);

  it('restore into a new data folder (and database) gives back every row and blob', async () => {
    // Attempts refused by their checks (no key for the seal, then none for the blobs) leave the new database as
    // empty as it was, so the operator's next attempt is not refused for an audit event of the last.
    await expect(admin(target, 'restore', '--from', file)).rejects.toMatchObject({ stderr: expect.stringContaining('--audit-key-file') });
    const auditKeyFile = path.join(source.dataDir, AUDIT_KEY_FILE);
    await expect(admin(target, 'restore', '--from', file, '--audit-key-file', auditKeyFile)).rejects.toMatchObject({
      stderr: expect.stringContaining('master key'),
    });
    const keyFile = path.join(source.dataDir, KEY_RING_FILE);
    const { stdout } = await admin(target, 'restore', '--from', file, '--key-file', keyFile, '--audit-key-file', auditKeyFile);
    expect(stdout).toMatch(/Restored \d+ rows of \d+ tables and 2 blobs .*its seal and its audit log verified/);

    const { database } = await open(target);
    try {
      const after = await tableRows(database.db);
      for (const [table, rows] of Object.entries(rowsAtBackup)) {
        if (table === 'audit_events') expect(after[table]!.slice(0, rows.length)).toEqual(rows);
        else expect(after[table], table).toEqual(rows);
      }
      // The source's events (its key, imported) and the restore's own (this folder's key): one chain that verifies.
      expect(await verifyAuditChain(database.db, openAuditKeys({ dataDir: target.dataDir }))).toMatchObject({
        ok: true,
        count: rowsAtBackup.audit_events!.length + 1,
      });
    } finally {
      await database.close();
    }
    const restored = await openBlobStore(loadConfig({ DATA_DIR: target.dataDir }));
    const original = await openBlobStore(loadConfig({ DATA_DIR: source.dataDir }));
    for (const [key, content] of audio) {
      expect(await restored.driver.get(key)).toEqual(await original.driver.get(key));
      expect(await restored.readBuffer(key)).toEqual(content);
    }
  }, 180_000);

  it('rotate-key rewraps every blob under a new key and retires the old one', async () => {
    const before = JSON.parse(readFileSync(path.join(source.dataDir, KEY_RING_FILE), 'utf8')).current;
    const { stdout } = await admin(source, 'rotate-key');
    expect(stdout).toMatch(/^New master key [0-9a-f]{16}\./);
    expect(stdout).toContain('2 blobs rewrapped');
    expect(stdout).toContain(`Retired key(s) ${before}`);
    const ring = JSON.parse(readFileSync(path.join(source.dataDir, KEY_RING_FILE), 'utf8'));
    expect(ring.keys.map((k: { id: string }) => k.id)).toEqual([ring.current]);
    const store = await openBlobStore(loadConfig({ DATA_DIR: source.dataDir }));
    for (const [key, content] of audio) {
      expect(storedKeyId((await store.driver.get(key))!)).toBe(ring.current);
      expect(await store.readBuffer(key)).toEqual(content);
    }
  }, 90_000);
});
