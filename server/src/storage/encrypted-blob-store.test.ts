/**
 * Blobs at rest: AES-256-GCM per blob under a wrapped data key, checked on every read; legacy plaintext read only
 * while a folder's migration from before encryption is pending, refused everywhere else; master keys from the
 * setting or the key ring file; rotation that leaves the old key unneeded, rewrites headers in place and never
 * brings back a blob deleted meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { BlobIntegrityError, decryptBlob, HEADER_BYTES, PlaintextBlobError, storedKeyId, UnknownMasterKeyError } from './blob-encryption.js';
import { checkAgainstRecords, factsOf, type BlobRecord } from './blob-records.js';
import type { BlobDriver } from './blob-store.js';
import { createEncryptedBlobStore, openBlobStore } from './encrypted-blob-store.js';
import { rotateMasterKey, RotationError } from './key-rotation.js';
import { KEY_RING_FILE, masterKeyId } from './master-keys.js';
import { ENCRYPTION_STATE_FILE } from './plaintext-migration.js';
import { plaintextScratchRoot } from './plaintext-scratch.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function dataDir() {
  const d = mkdtempSync(path.join(tmpdir(), 'cn-blobs-'));
  dirs.push(d);
  return d;
}
const fileMode = (dir: string) => ({ dataDir: dir, encryptionKey: undefined, previousEncryptionKeys: [] as Buffer[] });
const stored = (dir: string, key: string) => readFileSync(path.join(dir, 'files', key));
const MARKER = 'PATIENT-MARKER-Maria-Albertina-1957';

describe('encrypted blob store', () => {
  it('stores ciphertext with a versioned header and gives back the exact content', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    const content = Buffer.concat([Buffer.from(`RIFF....WAVE ${MARKER} `), randomBytes(5000)]);
    await store.put('sessions/s1/000000.wav', content);

    const raw = stored(dir, 'sessions/s1/000000.wav');
    expect(raw.includes(Buffer.from(MARKER))).toBe(false);
    expect(raw.subarray(0, 5)).toEqual(Buffer.from([0x89, 0x43, 0x4e, 0x42, 1]));
    expect(raw.length).toBe(content.length + HEADER_BYTES);
    expect(storedKeyId(raw)).toBe(store.keys.current().id);
    expect(statSync(path.join(dir, 'files', 'sessions/s1/000000.wav')).mode & 0o777).toBe(0o600);

    expect(await store.readBuffer('sessions/s1/000000.wav')).toEqual(content);
    const streamed: Buffer[] = [];
    for await (const c of store.read('sessions/s1/000000.wav')) streamed.push(c as Buffer);
    expect(Buffer.concat(streamed)).toEqual(content);
    expect(await store.size('sessions/s1/000000.wav')).toBe(content.length);
    // Two writes of the same content never share a data key or IV.
    await store.put('sessions/s1/000001.wav', content);
    expect(stored(dir, 'sessions/s1/000001.wav').subarray(13)).not.toEqual(raw.subarray(13));
  });

  it('refuses a tampered blob loudly: content, tag, wrapped key, or a blob moved to another name', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    const content = Buffer.from(`audio ${MARKER} `.repeat(50));
    await store.put('sessions/s2/000000.webm', content);
    const good = stored(dir, 'sessions/s2/000000.webm');
    const file = path.join(dir, 'files', 'sessions/s2/000000.webm');
    for (const offset of [HEADER_BYTES + 10, good.length - 1, 90 /* content tag */, 30 /* wrapped data key */, 60 /* wrapping tag */]) {
      const bad = Buffer.from(good);
      bad[offset]! ^= 0x01;
      writeFileSync(file, bad);
      await expect(store.readBuffer('sessions/s2/000000.webm')).rejects.toBeInstanceOf(BlobIntegrityError);
      // The stream errors before giving out a single byte of altered audio.
      const chunks: Buffer[] = [];
      await expect(
        (async () => {
          for await (const c of store.read('sessions/s2/000000.webm')) chunks.push(c as Buffer);
        })(),
      ).rejects.toBeInstanceOf(BlobIntegrityError);
      expect(chunks).toEqual([]);
    }
    writeFileSync(file, good);
    expect(await store.readBuffer('sessions/s2/000000.webm')).toEqual(content);
    // Another patient's blob copied over this name does not open.
    await store.put('sessions/s3/000000.webm', Buffer.from('someone else'));
    writeFileSync(file, stored(dir, 'sessions/s3/000000.webm'));
    await expect(store.readBuffer('sessions/s2/000000.webm')).rejects.toBeInstanceOf(BlobIntegrityError);
  });

  it('a wrong master key fails: an unknown id is named, a key under a forged id does not open', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    await store.put('research/r1/p1/f.pdf', Buffer.from(`%PDF-1.4 ${MARKER}`));
    const raw = stored(dir, 'research/r1/p1/f.pdf');

    const other = await openBlobStore({ dataDir: dataDir(), encryptionKey: randomBytes(32), previousEncryptionKeys: [] });
    await other.driver.put('research/r1/p1/f.pdf', raw);
    await expect(other.readBuffer('research/r1/p1/f.pdf')).rejects.toBeInstanceOf(UnknownMasterKeyError);
    const wrong = { id: storedKeyId(raw) as string, key: randomBytes(32) };
    expect(() => decryptBlob('research/r1/p1/f.pdf', raw, () => wrong)).toThrow(BlobIntegrityError);
  });

  it('reads blobs stored before encryption as they are', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'files', 'sessions', 'old'), { recursive: true });
    const legacy = Buffer.from(`\x1aE\xdf\xa3 old webm ${MARKER}`, 'latin1');
    writeFileSync(path.join(dir, 'files', 'sessions', 'old', '000000.webm'), legacy);
    const store = await openBlobStore(fileMode(dir));
    expect(await store.readBuffer('sessions/old/000000.webm')).toEqual(legacy);
    expect(await store.size('sessions/old/000000.webm')).toBe(legacy.length);
    expect(await store.withLocalFile('sessions/old/000000.webm', async (f) => readFileSync(f))).toEqual(legacy);
  });

  it('gives tools a private decrypted copy that is removed after use, even when the tool fails', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    const content = Buffer.from(`ogg ${MARKER}`);
    await store.put('sessions/s4/000003.ogg', content);
    const scratch = plaintextScratchRoot(dir);
    let seen = '';
    const answer = await store.withLocalFile('sessions/s4/000003.ogg', async (file) => {
      seen = file;
      expect(file.startsWith(scratch + path.sep)).toBe(true);
      expect(file.endsWith('/sessions/s4/000003.ogg')).toBe(true);
      expect(readFileSync(file)).toEqual(content);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(scratch).mode & 0o777).toBe(0o700);
      return 'read';
    });
    expect(answer).toBe('read');
    expect(existsSync(seen)).toBe(false);
    await expect(store.withLocalFile('sessions/s4/000003.ogg', async () => Promise.reject(new Error('ffmpeg died')))).rejects.toThrow('ffmpeg died');
    await store.withLocalFiles(['sessions/s4/000003.ogg', 'sessions/s4/000003.ogg'], async (files, work) => {
      expect(files).toHaveLength(2);
      expect(files[0]).not.toBe(files[1]);
      writeFileSync(path.join(work, 'joined.webm'), Buffer.concat(files.map((f) => readFileSync(f))));
    });
    expect(readdirSync(scratch)).toEqual([]);
    // A missing blob fails the use, and leaves nothing behind either.
    await expect(store.withLocalFile('sessions/none/000000.webm', async () => 'never')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('removes at start what a crashed process left: its scratch folders and interrupted writes', async () => {
    const dir = dataDir();
    const scratch = plaintextScratchRoot(dir);
    // pid 2^22 + 1 is above Linux's maximum pid: no such process can run.
    const dead = path.join(scratch, `${2 ** 22 + 1}.left-over`);
    mkdirSync(path.join(dead, 'sessions'), { recursive: true });
    writeFileSync(path.join(dead, 'sessions', '000000.webm'), MARKER);
    const alive = path.join(scratch, `${process.ppid}.in-use`);
    mkdirSync(alive, { recursive: true });
    mkdirSync(path.join(dir, 'files', 'sessions', 's5'), { recursive: true });
    const tmp = path.join(dir, 'files', 'sessions', 's5', '000000.webm.0b8f.tmp');
    writeFileSync(tmp, MARKER);
    const old = new Date(Date.now() - 3600_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(tmp, old, old);
    const fresh = path.join(dir, 'files', 'sessions', 's5', '000001.webm.77aa.tmp');
    writeFileSync(fresh, 'a write in progress elsewhere');

    const store = await openBlobStore(fileMode(dir));
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    const listed: string[] = [];
    for await (const k of store.list()) listed.push(k);
    expect(listed).toEqual([]);
  });
});

describe('master keys', () => {
  it('are generated once into DATA_DIR (0600) and kept across restarts', async () => {
    const dir = dataDir();
    const first = await openBlobStore(fileMode(dir));
    const file = path.join(dir, KEY_RING_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await openBlobStore(fileMode(dir));
    expect(again.keys.current()).toEqual(first.keys.current());
    await first.put('a/b.webm', Buffer.from('x'));
    expect(await again.readBuffer('a/b.webm')).toEqual(Buffer.from('x'));
  });

  it('a lost key ring file stops the start instead of making a new key that would strand the stored blobs', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    await store.put('sessions/k/0.webm', Buffer.from('x'));
    rmSync(path.join(dir, KEY_RING_FILE));
    await expect(openBlobStore(fileMode(dir))).rejects.toThrow(/encryption-keys\.json is missing/);
    expect(existsSync(path.join(dir, KEY_RING_FILE))).toBe(false);
  });

  it('ENCRYPTION_KEY is validated with a clear message that does not repeat it, in base64 or hex', () => {
    const dir = dataDir();
    const key = randomBytes(32);
    expect(loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: key.toString('base64') }).encryptionKey).toEqual(key);
    expect(loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: key.toString('hex') }).encryptionKey).toEqual(key);
    expect(
      loadConfig({
        DATA_DIR: dir,
        ENCRYPTION_KEY: key.toString('base64'),
        ENCRYPTION_KEY_PREVIOUS: `${randomBytes(32).toString('hex')}, ${randomBytes(32).toString('base64')}`,
      }).previousEncryptionKeys,
    ).toHaveLength(2);
    const short = randomBytes(16).toString('base64');
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: short });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('ENCRYPTION_KEY must be 32 random bytes');
    expect((error as Error).message).not.toContain(short);
    expect(() => loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: key.toString('base64'), ENCRYPTION_KEY_PREVIOUS: 'not-a-key' })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS/,
    );
  });

  it('with ENCRYPTION_KEY no key file is written, and the same key has the same id anywhere', async () => {
    const dir = dataDir();
    const key = randomBytes(32);
    const store = await openBlobStore({ dataDir: dir, encryptionKey: key, previousEncryptionKeys: [] });
    expect(existsSync(path.join(dir, KEY_RING_FILE))).toBe(false);
    expect(store.keys.current().id).toBe(masterKeyId(key));
    expect(store.keys.current().id).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('rotate-key', () => {
  it('rewraps every blob under a new key (header only), encrypts legacy ones, and the old key is no longer needed', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'files', 'sessions', 'old'), { recursive: true });
    writeFileSync(path.join(dir, 'files', 'sessions', 'old', '000000.webm'), `legacy ${MARKER}`);
    const store = await openBlobStore(fileMode(dir));
    const oldKey = store.keys.current();
    const contents = new Map([
      ['sessions/s1/000000.webm', Buffer.from(`one ${MARKER}`)],
      ['research/r1/p1/f.pdf', Buffer.from(`%PDF two ${MARKER}`)],
      ['custom_documents/c1/e.docx', randomBytes(3000)],
    ]);
    for (const [k, v] of contents) await store.put(k, v);
    const before = new Map([...contents.keys()].map((k) => [k, stored(dir, k)]));
    const oldRing = readFileSync(path.join(dir, KEY_RING_FILE));

    const report = await rotateMasterKey(store);
    expect(report).toMatchObject({ newKey: true, rewrapped: 3, encrypted: 1, alreadyCurrent: 0, retired: [oldKey.id] });
    expect(report.currentKeyId).not.toBe(oldKey.id);
    for (const [k, raw] of before) {
      const now = stored(dir, k);
      expect(storedKeyId(now)).toBe(report.currentKeyId);
      // The content's IV, tag and ciphertext are untouched; only the wrapping changed.
      expect(now.subarray(73)).toEqual(raw.subarray(73));
      expect(now.subarray(5, 73)).not.toEqual(raw.subarray(5, 73));
    }
    const legacyNow = stored(dir, 'sessions/old/000000.webm');
    expect(legacyNow.includes(Buffer.from(MARKER))).toBe(false);

    // The key ring file holds the new key only, and a server reading with it alone reads everything.
    const ring = JSON.parse(readFileSync(path.join(dir, KEY_RING_FILE), 'utf8'));
    expect(ring.keys.map((k: { id: string }) => k.id)).toEqual([report.currentKeyId]);
    const fresh = await openBlobStore(fileMode(dir));
    expect(fresh.keys.ids()).toEqual([report.currentKeyId]);
    for (const [k, v] of contents) expect(await fresh.readBuffer(k)).toEqual(v);
    expect(await text(fresh.read('sessions/old/000000.webm'))).toBe(`legacy ${MARKER}`);

    // And with only the old key, nothing opens any more.
    const oldOnly = dataDir();
    writeFileSync(path.join(oldOnly, KEY_RING_FILE), oldRing);
    chmodSync(path.join(oldOnly, KEY_RING_FILE), 0o600);
    const withOld = await openBlobStore(fileMode(oldOnly));
    await withOld.driver.put('sessions/s1/000000.webm', stored(dir, 'sessions/s1/000000.webm'));
    await expect(withOld.readBuffer('sessions/s1/000000.webm')).rejects.toBeInstanceOf(UnknownMasterKeyError);
  });

  it('an interrupted rotation is finished by running it again, without a third key', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    const oldId = store.keys.current().id;
    for (let i = 0; i < 4; i++) await store.put(`sessions/s/${i}.webm`, Buffer.from(`part ${i}`));
    // Interrupted after the new key was added and two blobs were rewrapped.
    const added = store.keys.addCurrentKey();
    await store.rewrap('sessions/s/0.webm');
    await store.rewrap('sessions/s/1.webm');

    const report = await rotateMasterKey(store);
    expect(report).toMatchObject({ newKey: false, currentKeyId: added.id, rewrapped: 2, alreadyCurrent: 2, retired: [oldId] });
    for (let i = 0; i < 4; i++) expect(storedKeyId(stored(dir, `sessions/s/${i}.webm`))).toBe(added.id);
    // Run again once finished: a normal rotation.
    expect((await rotateMasterKey(store)).newKey).toBe(true);
  });

  it('a second process on the same DATA_DIR (a running server) writes with the new key at once', async () => {
    const dir = dataDir();
    const server = await openBlobStore(fileMode(dir));
    const cli = await openBlobStore(fileMode(dir));
    await server.put('sessions/a/0.webm', Buffer.from('before'));
    const report = await rotateMasterKey(cli);
    await server.put('sessions/a/1.webm', Buffer.from('after'));
    expect(storedKeyId(stored(dir, 'sessions/a/1.webm'))).toBe(report.currentKeyId);
    expect(await server.readBuffer('sessions/a/0.webm')).toEqual(Buffer.from('before'));
  });

  it('with ENCRYPTION_KEY: the new key in the setting, the old one in ENCRYPTION_KEY_PREVIOUS, then the old one is unneeded', async () => {
    const dir = dataDir();
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = await openBlobStore({ dataDir: dir, encryptionKey: oldKey, previousEncryptionKeys: [] });
    await before.put('sessions/e/0.webm', Buffer.from(`env ${MARKER}`));
    const during = await openBlobStore({ dataDir: dir, encryptionKey: newKey, previousEncryptionKeys: [oldKey] });
    const report = await rotateMasterKey(during);
    expect(report).toMatchObject({ newKey: false, rewrapped: 1, currentKeyId: masterKeyId(newKey), unusedPreviousKeys: [masterKeyId(oldKey)] });
    const after = await openBlobStore({ dataDir: dir, encryptionKey: newKey, previousEncryptionKeys: [] });
    expect(await after.readBuffer('sessions/e/0.webm')).toEqual(Buffer.from(`env ${MARKER}`));
  });

  it('moving from the key file to ENCRYPTION_KEY: the file is read, then retired by rotate-key', async () => {
    const dir = dataDir();
    const fileStore = await openBlobStore(fileMode(dir));
    await fileStore.put('sessions/f/0.webm', Buffer.from('from the file era'));
    const fileKeyId = fileStore.keys.current().id;
    const key = randomBytes(32);
    const envStore = await openBlobStore({ dataDir: dir, encryptionKey: key, previousEncryptionKeys: [] });
    expect(await envStore.readBuffer('sessions/f/0.webm')).toEqual(Buffer.from('from the file era'));
    const report = await rotateMasterKey(envStore);
    expect(report.retired).toEqual([fileKeyId]);
    expect(existsSync(path.join(dir, KEY_RING_FILE))).toBe(false);
    expect(storedKeyId(stored(dir, 'sessions/f/0.webm'))).toBe(masterKeyId(key));
  });

  it('keeps the old keys when a blob cannot be opened', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    await store.put('sessions/x/0.webm', Buffer.from('fine'));
    const foreign = await openBlobStore({ dataDir: dataDir(), encryptionKey: randomBytes(32), previousEncryptionKeys: [] });
    await foreign.put('sessions/x/1.webm', Buffer.from('from elsewhere'));
    copyFileSync(path.join(foreign.keys.file, '..', 'files', 'sessions/x/1.webm'), path.join(dir, 'files', 'sessions/x/1.webm'));
    await expect(rotateMasterKey(store)).rejects.toThrow(/sessions\/x\/1\.webm/);
    expect(store.keys.ids()).toHaveLength(2);
    expect(await store.readBuffer('sessions/x/0.webm')).toEqual(Buffer.from('fine'));
  });
});

/** Writes files into DATA_DIR/files as a server from before encryption did (before the store is opened). */
function plantFiles(dir: string, files: Record<string, string | Buffer>) {
  for (const [key, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, 'files', key)), { recursive: true });
    writeFileSync(path.join(dir, 'files', key), content);
  }
}
const migrationState = (dir: string) => JSON.parse(readFileSync(path.join(dir, ENCRYPTION_STATE_FILE), 'utf8')).legacy_plaintext as string;

async function expectRefused(store: Awaited<ReturnType<typeof openBlobStore>>, key: string) {
  await expect(store.readBuffer(key)).rejects.toBeInstanceOf(PlaintextBlobError);
  await expect(store.readBuffer(key)).rejects.toThrow(/is not encrypted, and this data folder accepts no unencrypted files/);
  // No byte is streamed, no copy given to a tool.
  const chunks: Buffer[] = [];
  await expect(
    (async () => {
      for await (const c of store.read(key)) chunks.push(c as Buffer);
    })(),
  ).rejects.toBeInstanceOf(PlaintextBlobError);
  expect(chunks).toEqual([]);
  let toolRan = false;
  await expect(store.withLocalFile(key, async () => void (toolRan = true))).rejects.toBeInstanceOf(PlaintextBlobError);
  expect(toolRan).toBe(false);
  await expect(store.size(key)).rejects.toBeInstanceOf(PlaintextBlobError);
}

describe('plaintext blobs', () => {
  it('a new data folder accepts none: a file planted without encryption is refused, and rotate-key does not launder it', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    expect(migrationState(dir)).toBe('none');
    await store.put('sessions/abc/000001.deadbeef.webm', Buffer.from('REAL PATIENT AUDIO'));
    // Someone with write access to the files (or a bucket) swaps in a file without the encryption header.
    const forged = Buffer.from(`FORGED CONTENT ${MARKER}`);
    writeFileSync(path.join(dir, 'files', 'sessions/abc/000001.deadbeef.webm'), forged);
    plantFiles(dir, { 'sessions/new/000000.webm': forged });
    await expectRefused(store, 'sessions/abc/000001.deadbeef.webm');
    await expectRefused(store, 'sessions/new/000000.webm');

    await expect(store.rewrap('sessions/abc/000001.deadbeef.webm')).rejects.toBeInstanceOf(PlaintextBlobError);
    await expect(rotateMasterKey(store)).rejects.toThrow(RotationError);
    await expect(rotateMasterKey(store)).rejects.toThrow(/sessions\/abc\/000001\.deadbeef\.webm: The blob .* is not encrypted/);
    // Still the forged bytes, not an authenticated blob made of them.
    expect(stored(dir, 'sessions/abc/000001.deadbeef.webm')).toEqual(forged);
    await expectRefused(store, 'sessions/abc/000001.deadbeef.webm');
    // A restart decides nothing anew.
    expect(migrationState(dir)).toBe('none');
    await expectRefused(await openBlobStore(fileMode(dir)), 'sessions/new/000000.webm');
  });

  it('a folder from before encryption reads its plaintext files until the first complete rotate-key, then refuses any', async () => {
    const dir = dataDir();
    plantFiles(dir, { 'sessions/old/000000.webm': `old audio ${MARKER}`, 'research/r/p/f.pdf': '%PDF old record' });
    const server = await openBlobStore(fileMode(dir));
    expect(migrationState(dir)).toBe('pending');
    expect(await server.readBuffer('sessions/old/000000.webm')).toEqual(Buffer.from(`old audio ${MARKER}`));
    expect(await server.size('research/r/p/f.pdf')).toBe(15);
    await server.put('sessions/new/000000.webm', Buffer.from('new audio'));

    // rotate-key runs in the admin CLI, with its own store, while the server keeps running.
    const cli = await openBlobStore(fileMode(dir));
    const report = await rotateMasterKey(cli);
    expect(report).toMatchObject({ encrypted: 2, rewrapped: 1, plaintextMigrationFinished: true });
    expect(migrationState(dir)).toBe('none');
    expect(stored(dir, 'sessions/old/000000.webm').includes(Buffer.from(MARKER))).toBe(false);
    expect(await server.readBuffer('sessions/old/000000.webm')).toEqual(Buffer.from(`old audio ${MARKER}`));

    // From now on the running server, too, refuses a plaintext file, and the next rotation does not encrypt it.
    plantFiles(dir, { 'sessions/old/000001.webm': 'planted after the migration' });
    await expectRefused(server, 'sessions/old/000001.webm');
    await expect(rotateMasterKey(cli)).rejects.toThrow(/sessions\/old\/000001\.webm/);
    expect(stored(dir, 'sessions/old/000001.webm')).toEqual(Buffer.from('planted after the migration'));
    expect((await rotateMasterKey(await openBlobStore(fileMode(dataDir())))).plaintextMigrationFinished).toBe(false);
  });

  it('the state is decided once, at the first start, from what the folder holds', async () => {
    // Encrypted files already there (a folder whose state file was lost, a bucket other servers encrypt): none.
    const mixed = dataDir();
    const first = await openBlobStore(fileMode(mixed));
    await first.put('sessions/a/0.webm', Buffer.from('encrypted'));
    rmSync(path.join(mixed, ENCRYPTION_STATE_FILE));
    plantFiles(mixed, { 'sessions/a/1.webm': 'planted' });
    const again = await openBlobStore(fileMode(mixed));
    expect(migrationState(mixed)).toBe('none');
    await expectRefused(again, 'sessions/a/1.webm');
    // With ENCRYPTION_KEY (no key ring file), a folder from before encryption migrates the same way.
    const env = dataDir();
    plantFiles(env, { 'custom_documents/c/e': 'old example' });
    const envStore = await openBlobStore({ dataDir: env, encryptionKey: randomBytes(32), previousEncryptionKeys: [] });
    expect(migrationState(env)).toBe('pending');
    expect(await envStore.readBuffer('custom_documents/c/e')).toEqual(Buffer.from('old example'));
    expect(statSync(path.join(env, ENCRYPTION_STATE_FILE)).mode & 0o777).toBe(0o600);
  });

  it('while the migration is pending, a plaintext file must match what the database recorded of it', async () => {
    const dir = dataDir();
    const genuine = Buffer.from(`genuine part ${MARKER}`);
    plantFiles(dir, { 'sessions/s/000000.webm': genuine, 'sessions/s/000001.webm': 'swapped in' });
    // As the database recorded them when they were uploaded (size and SHA-256).
    const records = new Map<string, BlobRecord[]>([
      ['sessions/s/000000.webm', [{ sizeBytes: genuine.length, sha256: factsOf(genuine).sha256 }]],
      ['sessions/s/000001.webm', [{ sizeBytes: 10, sha256: factsOf(Buffer.from('the original')).sha256 }]],
    ]);
    const checked: string[] = [];
    const store = await openBlobStore(fileMode(dir), {
      checkPlaintext: async (key, content) => {
        checked.push(key);
        checkAgainstRecords(key, factsOf(content), records.get(key) ?? []);
      },
    });
    expect(await store.readBuffer('sessions/s/000000.webm')).toEqual(genuine);
    await expect(store.readBuffer('sessions/s/000001.webm')).rejects.toThrow(/SHA-256 differs from what was recorded/);
    await expect(rotateMasterKey(store)).rejects.toThrow(/sessions\/s\/000001\.webm/);
    // Not turned into an authenticated blob; the genuine one was encrypted.
    expect(stored(dir, 'sessions/s/000001.webm')).toEqual(Buffer.from('swapped in'));
    expect(storedKeyId(stored(dir, 'sessions/s/000000.webm'))).not.toBe('legacy');
    expect(checked).toContain('sessions/s/000001.webm');
    expect(migrationState(dir)).toBe('pending');
  });
});

describe('rotate-key while the retention sweep deletes', () => {
  const exists = (dir: string, key: string) => existsSync(path.join(dir, 'files', key));

  it('rewrites only the header, in place, and leaves a blob deleted meanwhile deleted', async () => {
    const dir = dataDir();
    const store = await openBlobStore(fileMode(dir));
    await store.put('sessions/i/0.webm', randomBytes(50_000));
    const file = path.join(dir, 'files', 'sessions/i/0.webm');
    const { ino } = statSync(file);
    store.keys.addCurrentKey();
    expect(await store.rewrap('sessions/i/0.webm')).toBe('rewrapped');
    // The same file, not a new one renamed over it.
    expect(statSync(file).ino).toBe(ino);
    expect(await store.rewrap('sessions/i/0.webm')).toBe('current');

    store.keys.addCurrentKey();
    await store.deletePrefix('sessions/i/');
    expect(await store.rewrap('sessions/i/0.webm')).toBe('missing');
    expect(await store.driver.patchHead!('sessions/i/0.webm', HEADER_BYTES, (h) => h)).toBe('missing');
    expect(exists(dir, 'sessions/i/0.webm')).toBe(false);
    expect(existsSync(path.join(dir, 'files', 'sessions/i'))).toBe(false);
  });

  /** Files under DATA_DIR/files, temporary files and locks included. */
  const filesUnder = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));

  /**
   * One round of the reviewer's scenario: rotate-key (its own store, like the admin CLI) runs while the retention
   * sweep deletes the same consultations' audio, as whole folders and as single parts.
   */
  async function rotateWhileDeleting(dir: string, server: Awaited<ReturnType<typeof openBlobStore>>, keys: string[]) {
    let failures = 0;
    let deletionFailures = 0;
    const cli = await openBlobStore(fileMode(dir));
    const rotation = rotateMasterKey(cli).catch(() => void failures++);
    await new Promise((resolve) => setTimeout(resolve, 3));
    for (const [i, k] of keys.entries()) {
      const deletion = i % 2 ? server.delete(k) : server.deletePrefix(`${k.split('/').slice(0, 2).join('/')}/`);
      await deletion.catch(() => void deletionFailures++);
    }
    await rotation;
    return { failures, deletionFailures, resurrected: keys.filter((k) => exists(dir, k)).length };
  }
  const roundKeys = (round: number, n: number) => Array.from({ length: n }, (_, i) => `sessions/r${round}-${i}/000001.abcd.webm`);
  const sum = (results: { failures: number; deletionFailures: number; resurrected: number }[]) =>
    results.reduce((a, r) => ({
      failures: a.failures + r.failures,
      deletionFailures: a.deletionFailures + r.deletionFailures,
      resurrected: a.resurrected + r.resurrected,
    }));

  it('concurrent rotations and deletions: no failure, no deleted blob back', async () => {
    const dir = dataDir();
    const server = await openBlobStore(fileMode(dir));
    const results = [];
    for (let round = 0; round < 8; round++) {
      const keys = roundKeys(round, 40);
      for (const k of keys) await server.put(k, randomBytes(100_000));
      results.push(await rotateWhileDeleting(dir, server, keys));
    }
    expect(sum(results)).toEqual({ failures: 0, deletionFailures: 0, resurrected: 0 });
    // No blob, temporary file or lock left behind.
    expect(filesUnder(path.join(dir, 'files'))).toEqual([]);
  }, 120_000);

  it('the same while files from before encryption are encrypted (whole files rewritten)', async () => {
    const results = [];
    for (let round = 0; round < 6; round++) {
      const dir = dataDir();
      const keys = roundKeys(round, 30);
      plantFiles(dir, Object.fromEntries(keys.map((k) => [k, randomBytes(100_000)])));
      const server = await openBlobStore(fileMode(dir));
      expect(migrationState(dir)).toBe('pending');
      results.push(await rotateWhileDeleting(dir, server, keys));
      expect(filesUnder(path.join(dir, 'files'))).toEqual([]);
    }
    expect(sum(results)).toEqual({ failures: 0, deletionFailures: 0, resurrected: 0 });
  }, 120_000);

  it('a driver that cannot patch in place (an S3-compatible one) still rotates, through the generic path', async () => {
    const dir = dataDir();
    const full = await openBlobStore(fileMode(dir));
    await full.put('sessions/s3/0.webm', Buffer.from(`object ${MARKER}`));
    plantFiles(dir, { 'sessions/s3/1.webm': 'legacy object' });
    const { patchHead: _patch, replaceExisting: _replace, ...rest } = full.driver;
    const objectDriver: BlobDriver = rest;
    const { openPlaintextScratch } = await import('./plaintext-scratch.js');
    const pending = { file: '', pending: () => true, finish: () => true };
    const store = createEncryptedBlobStore(objectDriver, full.keys, await openPlaintextScratch(dir), pending);
    const report = await rotateMasterKey(store);
    expect(report).toMatchObject({ rewrapped: 1, encrypted: 1 });
    expect(await full.readBuffer('sessions/s3/0.webm')).toEqual(Buffer.from(`object ${MARKER}`));
    expect(storedKeyId(stored(dir, 'sessions/s3/1.webm'))).toBe(report.currentKeyId);
  });
});
