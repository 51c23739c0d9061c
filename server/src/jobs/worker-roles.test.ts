/**
 * Jobs across processes: a part is transcribed once however many workers run (a claim's token fences a worker
 * that stalled past its lock), a stopping worker hands its parts back at once, and with ROLE=api / ROLE=worker
 * the API stores and wakes while the worker transcribes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Agent, get as httpGet } from 'node:http';
import type { Transcriber } from '../ai/transcriber.js';
import type { TextGenerator } from '../ai/text-generator.js';
import { startGeneration } from '../modules/generated_documents/service.js';
import { findSessionById } from '../modules/consultation_sessions/repository.js';
import { audioChunks } from '../db/schema.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, usingPostgres, type TestApp } from '../test-support/test-app.js';
import { until } from '../test-support/until.js';
import { startTranscriptionWorkers } from './transcription-worker.js';

/** An engine that answers only when the test lets it, counting the calls. */
function heldEngine(text: string) {
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  const engine = {
    calls: 0,
    release: () => release(),
    rearm: () => (gate = new Promise<void>((resolve) => (release = resolve))),
    transcriber: {
      info: { engine: 'local', languages: ['en'] },
      async transcribe() {
        engine.calls++;
        await gate;
        return text;
      },
    } satisfies Transcriber,
  };
  return engine;
}

let dir: string;
let tone: Buffer;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cn-roles-'));
  tone = makeWebm(dir, 'tone', 1);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function uploadPart(t: TestApp, order = 0) {
  const u = await createUser(t);
  const headers = bearer(await login(t, u.email, u.password));
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  const m = multipartAudio(order, tone);
  const res = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
  expect(res.statusCode).toBe(201);
  return id;
}

const partOf = async (t: TestApp, sessionId: string) => (await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, sessionId)))[0]!;

describe('a part is transcribed once', () => {
  it('a stopping worker hands back the part it holds at once, and its late answer is dropped', async () => {
    const engine = heldEngine('late words');
    const t = await createTestApp({ TRANSCRIPTION_WORKERS: '1' }, { transcriber: engine.transcriber });
    try {
      const id = await uploadPart(t);
      await until(
        'claimed',
        () => partOf(t, id),
        (p) => p.transcriptionStatus === 'processing',
        { everyMs: 50 },
      );
      await t.ctx.transcriptionQueue.stop(50);
      const handedBack = await partOf(t, id);
      expect(handedBack).toMatchObject({ transcriptionStatus: 'pending', attempts: 0, lockedUntil: null, transcript: null });
      engine.release();
      await new Promise((r) => setTimeout(r, 200));
      expect(await partOf(t, id)).toMatchObject({ transcriptionStatus: 'pending', transcript: null });
    } finally {
      engine.release();
      await t.close();
    }
  });

  it('a worker that stalled past its lock writes nothing over the worker that took the part', async () => {
    const slow = heldEngine('stalled words');
    const t = await createTestApp({ TRANSCRIPTION_WORKERS: '1' }, { transcriber: slow.transcriber });
    const fast = heldEngine('fresh words');
    fast.release();
    try {
      const id = await uploadPart(t);
      await until(
        'claimed',
        () => partOf(t, id),
        (p) => p.transcriptionStatus === 'processing',
        { everyMs: 50 },
      );
      // The first worker's lock has passed (it stalled): a second worker claims the part and transcribes it.
      await t.ctx.db.update(audioChunks).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(audioChunks.sessionId, id));
      const second = startTranscriptionWorkers({ db: t.ctx.db, blobs: t.ctx.blobs, transcriber: fast.transcriber, workers: 1, log: t.app.log });
      await until(
        'done by the second worker',
        () => partOf(t, id),
        (p) => p.transcriptionStatus === 'done',
        { everyMs: 50 },
      );
      await second.stop();
      slow.release();
      await t.ctx.transcriptionQueue.stop();
      const part = await partOf(t, id);
      expect(part).toMatchObject({ transcriptionStatus: 'done', transcript: 'fresh words', attempts: 2 });
      expect(slow.calls).toBe(1);
      expect(fast.calls).toBe(1);
    } finally {
      slow.release();
      await t.close();
    }
  });
});

// Split roles need PostgreSQL (the embedded database serves one process): run by the PostgreSQL pass of the tests.
describe.runIf(usingPostgres())('ROLE=api and ROLE=worker on one PostgreSQL', () => {
  let api: TestApp;
  let worker: TestApp;
  const apiEngine = heldEngine('never');
  const workerEngine = heldEngine('from the worker');
  beforeAll(async () => {
    workerEngine.release();
    api = await createTestApp({ ROLE: 'api' }, { transcriber: apiEngine.transcriber });
    // Same files as the API (one folder here; a bucket in production).
    worker = await createTestApp({ ROLE: 'worker', DATA_DIR: api.ctx.config.dataDir }, { transcriber: workerEngine.transcriber, sharingDatabaseOf: api });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('the API stores the part and wakes the worker, which transcribes it; the API transcribes nothing', async () => {
    const id = await uploadPart(api);
    const started = Date.now();
    await until(
      'transcribed by the worker',
      () => partOf(api, id),
      (p) => p.transcriptionStatus === 'done',
      { ms: 5000, everyMs: 50 },
    );
    // Woken through the event bus, not found at the next 2-second poll.
    expect(Date.now() - started).toBeLessThan(1900);
    expect((await partOf(api, id)).transcript).toBe('from the worker');
    expect(apiEngine.calls).toBe(0);
    await expect(api.ctx.transcriptionQueue.drain()).rejects.toThrow(/worker/);
  });

  it('a worker answers its health check and nothing of the API', async () => {
    expect((await worker.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // The probes and its own metrics, on the same port.
    expect((await worker.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await worker.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await worker.app.inject({ method: 'GET', url: '/metrics' })).body).toContain('transcription_lag_seconds');
    expect((await worker.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email: 'a@b.c', password: 'x' } } })).statusCode).toBe(404);
    expect((await worker.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
  });
});

describe('stopping', () => {
  it('a document stream open on a kept-alive connection ends, and does not hold the stopping process', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Writes a first line, then waits: the document is being written when the process is told to stop.
    const slow: TextGenerator = {
      info: { engine: 'composer', model: 'test', usesAi: false },
      async *write() {
        yield 'Subjective: ';
        await held;
        yield 'cough.';
      },
    };
    const t = await createTestApp({}, { textGenerator: slow });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const u = await createUser(t);
      const token = await login(t, u.email, u.password);
      const id: string = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/consultation_sessions',
          headers: bearer(token),
          payload: { consultation_type_id: 'general_consultation' },
        })
      ).json().consultation_session.id;
      await startGeneration(t.ctx, (await findSessionById(t.ctx.db, id))!, 'main');
      const agent = new Agent({ keepAlive: true });
      let closing: Promise<undefined> | undefined;
      let closeStarted = 0;
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpGet(
          `http://127.0.0.1:${port}/v1/consultation_sessions/${id}/generated_documents/main/stream`,
          { agent, headers: bearer(token) },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
              // The first words arrived: now the process is told to stop.
              if (text.includes('Subjective') && !closing) {
                closeStarted = Date.now();
                closing = t.app.close();
              }
            });
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
      });
      await closing;
      expect(Date.now() - closeStarted).toBeLessThan(5000);
      expect(body).toContain('Subjective');
      // Ended without an outcome: the browser opens the stream again elsewhere.
      expect(body).not.toMatch(/event: (done|failed)/);
      agent.destroy();
    } finally {
      release();
      await t.close();
    }
  }, 30_000);

  it('the health check says stopping as soon as the process is told to stop', async () => {
    const t = await createTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const closing = t.close();
    // preClose has run (draining) before the server stops answering.
    await new Promise((r) => setImmediate(r));
    expect(t.ctx.draining.aborted).toBe(true);
    await closing;
  });
});

describe('the lock of a part', () => {
  it('is renewed while the engine works, so a long transcription is not taken by another worker', async () => {
    const slow = heldEngine('long words');
    const t = await createTestApp({ TRANSCRIPTION_WORKERS: '1', JOB_LEASE_SECONDS: '3' }, { transcriber: slow.transcriber });
    try {
      const id = await uploadPart(t);
      const first = await until(
        'claimed',
        () => partOf(t, id),
        (p) => p.transcriptionStatus === 'processing',
        { everyMs: 50 },
      );
      // Longer than the lock: without renewal another claim would take the part.
      await new Promise((r) => setTimeout(r, 4000));
      const later = await partOf(t, id);
      expect(later.transcriptionStatus).toBe('processing');
      expect(later.lockedUntil!.getTime()).toBeGreaterThan(first.lockedUntil!.getTime());
      expect(later.attempts).toBe(1);
      slow.release();
      await until(
        'done',
        () => partOf(t, id),
        (p) => p.transcriptionStatus === 'done',
        { everyMs: 50 },
      );
      expect((await partOf(t, id)).transcript).toBe('long words');
    } finally {
      slow.release();
      await t.close();
    }
  });
});

describe('a part whose workers died under it', () => {
  it('is not claimed a fourth time: it fails, and the engine never sees it again', async () => {
    const engine = heldEngine('never');
    const t = await createTestApp({ TRANSCRIPTION_WORKERS: '0' }, { transcriber: engine.transcriber });
    // A short lease: the sweep that marks such parts failed runs once a lease when the worker is idle.
    const worker = startTranscriptionWorkers({
      db: t.ctx.db,
      blobs: t.ctx.blobs,
      transcriber: engine.transcriber,
      workers: 1,
      log: t.app.log,
      leaseSeconds: 1,
    });
    try {
      const id = await uploadPart(t);
      // Claimed three times by workers that died: its third lease has passed.
      await t.ctx.db
        .update(audioChunks)
        .set({ transcriptionStatus: 'processing', attempts: 3, lockedUntil: sql`now() - interval '1 second'` })
        .where(eq(audioChunks.sessionId, id));
      await worker.drain();
      const part = await until(
        'given up',
        () => partOf(t, id),
        (p) => p.transcriptionStatus === 'failed',
        { everyMs: 50 },
      );
      expect(part).toMatchObject({ attempts: 3, lockedUntil: null, lastError: expect.stringContaining('3 times') });
      expect(engine.calls).toBe(0);
    } finally {
      engine.release();
      await worker.stop();
      await t.close();
    }
  });
});
