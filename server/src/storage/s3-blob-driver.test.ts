import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { audioChunks, consultationSessions } from '../db/schema.js';
import { sessionBlobPrefix, sweepExpiredConsultations } from '../jobs/retention.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { startTestS3 } from '../test-support/s3-server.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { openBlobStore } from './encrypted-blob-store.js';
import { createS3BlobDriver } from './s3-blob-driver.js';

let s3: Awaited<ReturnType<typeof startTestS3>>;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.close());

const all = async (it: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const k of it) out.push(k);
  return out.sort();
};

describe('the S3 settings', () => {
  it('need a bucket with an endpoint or a key, and both halves of a key', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-s3-config-'));
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/go together/);
    // Every process writing to one bucket must share the key.
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_BUCKET: 'b' })).toThrow(/ENCRYPTION_KEY/);
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_BUCKET: 'b', ENCRYPTION_KEY: key, S3_SSE_KMS_KEY_ID: 'k' })).toThrow(/aws:kms/);
    expect(loadConfig({ DATA_DIR: dataDir }).s3).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: key, S3_BUCKET: 'b', S3_PREFIX: '/clinic-a', S3_FORCE_PATH_STYLE: 'true', S3_SSE: 'AES256' }).s3,
    ).toMatchObject({
      bucket: 'b',
      prefix: 'clinic-a/',
      forcePathStyle: true,
      serverSideEncryption: 'AES256',
      credentials: undefined,
    });
  });
});

describe('the S3-compatible driver', () => {
  it('stores, reads, measures, lists and deletes blobs like the filesystem driver', async () => {
    const d = createS3BlobDriver(s3.settings('contract/'));
    await d.put('sessions/a/part-0', Buffer.from('hello world'));
    await d.put('sessions/a/part-1', Buffer.alloc(0));
    await d.put('sessions/b/part-0', Buffer.from('other'));
    expect((await d.get('sessions/a/part-0'))?.toString()).toBe('hello world');
    expect((await d.readHead('sessions/a/part-0', 5))?.toString()).toBe('hello');
    expect((await d.readHead('sessions/a/part-0', 100))?.toString()).toBe('hello world');
    expect(await d.readHead('sessions/a/part-1', 5)).toEqual(Buffer.alloc(0));
    expect(await d.size('sessions/a/part-0')).toBe(11);
    expect(await d.get('sessions/none')).toBeUndefined();
    expect(await d.readHead('sessions/none', 4)).toBeUndefined();
    expect(await d.size('sessions/none')).toBeUndefined();
    expect(await all(d.list())).toEqual(['sessions/a/part-0', 'sessions/a/part-1', 'sessions/b/part-0']);
    expect(await all(d.list('sessions/a/'))).toEqual(['sessions/a/part-0', 'sessions/a/part-1']);
    await d.deletePrefix('sessions/a/');
    expect(await all(d.list())).toEqual(['sessions/b/part-0']);
    // Never the whole installation by mistake.
    await expect(d.deletePrefix('')).rejects.toThrow(/folder/);
    await expect(d.deletePrefix('sessions')).rejects.toThrow(/folder/);
    await d.delete('sessions/b/part-0');
    await d.delete('sessions/b/part-0');
    expect(await all(d.list())).toEqual([]);
  });

  it('keeps installations that share a bucket apart, and refuses keys that climb out of its prefix', async () => {
    const a = createS3BlobDriver(s3.settings('clinic-a/'));
    const b = createS3BlobDriver(s3.settings('clinic-b/'));
    await a.put('k', Buffer.from('a'));
    expect(await b.get('k')).toBeUndefined();
    expect(await all(b.list())).toEqual([]);
    await b.deletePrefix('k/');
    expect((await a.get('k'))?.toString()).toBe('a');
    for (const key of ['', '/etc/passwd', '../clinic-b/k', 'x/../../y']) await expect(a.put(key, Buffer.from('x'))).rejects.toThrow(/outside the store/);
  });

  it('deletes more than one request can name (1,000 keys) under a prefix', { timeout: 60_000 }, async () => {
    const d = createS3BlobDriver(s3.settings('many/'));
    for (let from = 0; from < 1003; from += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 1003 - from) }, (_, i) => d.put(`sessions/x/${String(from + i).padStart(4, '0')}`, Buffer.from([i]))),
      );
    }
    expect((await all(d.list('sessions/x/'))).length).toBe(1003);
    await d.deletePrefix('sessions/x/');
    expect(await all(d.list('sessions/x/'))).toEqual([]);
  });

  it('replaces a blob only while it exists, and reads it again when it changed meanwhile', async () => {
    const d = createS3BlobDriver(s3.settings('replace/'));
    await d.put('k', Buffer.from('one'));
    expect(await d.replaceExisting('k', async (b) => Buffer.from(`${b.toString()}+`))).toBe('replaced');
    expect((await d.get('k'))?.toString()).toBe('one+');
    expect(await d.replaceExisting('k', async () => undefined)).toBe('unchanged');
    // Deleted while being rewritten (a retention sweep): it stays deleted.
    expect(
      await d.replaceExisting('k', async (b) => {
        await d.delete('k');
        return Buffer.concat([b, Buffer.from('!')]);
      }),
    ).toBe('missing');
    expect(await d.get('k')).toBeUndefined();
    // Replaced by another writer while being rewritten: the new content is the one transformed.
    await d.put('k', Buffer.from('two'));
    let calls = 0;
    expect(
      await d.replaceExisting('k', async (b) => {
        if (calls++ === 0) await d.put('k', Buffer.from('three'));
        return Buffer.from(`${b.toString()}+`);
      }),
    ).toBe('replaced');
    expect((await d.get('k'))?.toString()).toBe('three+');
  });
});

describe('the encrypted blob store on S3', () => {
  it('keeps only ciphertext in the bucket, and gives tools a local copy that is removed after', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-s3-store-'));
    const store = await openBlobStore({ dataDir, encryptionKey: undefined, previousEncryptionKeys: [], s3: s3.settings('store/') });
    await store.put('sessions/s/part-0', Buffer.from('Patient reports chest pain.'));
    const raw = await createS3BlobDriver(s3.settings('store/')).get('sessions/s/part-0');
    expect(raw?.toString('latin1')).not.toContain('chest pain');
    expect((await store.readBuffer('sessions/s/part-0')).toString()).toBe('Patient reports chest pain.');
    let seen = '';
    await store.withLocalFile('sessions/s/part-0', async (file) => {
      seen = file;
      expect(existsSync(file)).toBe(true);
    });
    expect(existsSync(seen)).toBe(false);
    // Nothing of the bucket's blobs is left in the data folder but the keys and the empty scratch space.
    expect(readdirSync(dataDir).filter((f) => f === 'files')).toEqual([]);
  });

  it('refuses to start with a new key ring when the bucket already holds encrypted blobs', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'cn-s3-nokeys-'));
    await expect(openBlobStore({ dataDir: elsewhere, encryptionKey: undefined, previousEncryptionKeys: [], s3: s3.settings('store/') })).rejects.toThrow(
      /the bucket/,
    );
  });
});

describe('the app on S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(s3.env('app/'), {
      transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'the patient has a cough' },
    });
  });
  afterAll(() => t.close());

  it('records, transcribes and writes from parts in the bucket, and the retention sweep deletes every blob of the consultation', async () => {
    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    const id: string = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    const audio = makeWebm(mkdtempSync(path.join(tmpdir(), 'cn-s3-audio-')), 'part', 1);
    for (const order of [0, 1]) {
      const m = multipartAudio(order, audio);
      expect(
        (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
          .statusCode,
      ).toBe(201);
    }
    await t.ctx.transcriptionQueue.drain();
    const session = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).json().consultation_session;
    expect(session.transcription).toBe('the patient has a cough the patient has a cough');
    const bucket = createS3BlobDriver(s3.settings('app/'));
    expect((await all(bucket.list(sessionBlobPrefix(id)))).length).toBe(2);
    // The parts' audio plays back from the bucket.
    const chunks = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, id));
    const played = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/audios/${chunks[0]!.id}`, headers });
    expect(played.statusCode).toBe(200);
    expect(played.rawPayload.equals(audio)).toBe(true);

    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    await t.ctx.db
      .update(consultationSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(consultationSessions.id, id));
    await sweepExpiredConsultations(t.ctx.db, t.ctx.blobs);
    expect(await all(bucket.list(sessionBlobPrefix(id)))).toEqual([]);
  });
});
