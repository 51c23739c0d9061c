/**
 * The scale test (small here, large in bench/chaos.ts): three API processes and two workers (each its own Node process) behind a proxy, on one
 * PostgreSQL database and an S3-compatible bucket, with AI engines speaking the OpenAI format. Recorders upload
 * parts through the proxy and finish; phones poll; documents are followed through the proxy (often on another
 * process than the one writing them). Meanwhile every API process is restarted in turn (SIGTERM), one worker is
 * killed (SIGKILL) and another started, and one API process is killed while it writes documents.
 *
 * Asserted: no answer with a 5xx; every part stored once and transcribed; every document written once, to the
 * end, with one credit debited for it; a graceful stop exits 0 well within the deadline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioChunks, creditLedger, generatedDocuments } from '../db/schema.js';
import { grantCredits } from '../modules/credits/service.js';
import { makeWebm } from '../test-support/audio-fixtures.js';
import { startBalancer, type Balancer } from '../test-support/balancer.js';
import { sharedSettings, startServerProcess, type Role, type ServerProcess } from '../test-support/cluster.js';
import { createUser, login } from '../test-support/factories.js';
import { startFakeOpenAi } from '../test-support/fake-openai.js';
import { startTestS3 } from '../test-support/s3-server.js';
import { createTestApp, usingPostgres, type TestApp } from '../test-support/test-app.js';

// Small in `npm test`; bench/chaos.ts runs the same scenario large (SCALE_RECORDERS, SCALE_PARTS).
const RECORDERS = Number(process.env.SCALE_RECORDERS ?? 8);
const PARTS = Number(process.env.SCALE_PARTS ?? 6);
const LARGE = RECORDERS * PARTS > 48;
const NOTE = 'Subjective: cough for three days. Plan: rest and fluids.';

// Several processes share one database only on PostgreSQL: this runs in the PostgreSQL pass of the tests.
describe.runIf(usingPostgres())('three API processes and two workers behind a proxy', () => {
  let setup: TestApp;
  let s3: Awaited<ReturnType<typeof startTestS3>>;
  let engine: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let balancer: Balancer;
  let shared: Record<string, string>;
  let dir: string;
  let part: Buffer;
  const processes = new Map<string, ServerProcess>();

  const start = async (name: string, role: Role) => {
    const p = await startServerProcess(name, role, shared);
    processes.set(name, p);
    return p;
  };
  const apis = () => [...processes.values()].filter((p) => p.role === 'api' && p.child.exitCode === null && p.child.signalCode === null);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cn-scale-'));
    part = makeWebm(dir, 'part', 1);
    s3 = await startTestS3('scale-test');
    // Documents are written in pieces over about two seconds, so that a process can be stopped while writing.
    engine = await startFakeOpenAi((p) =>
      p.endsWith('/audio/transcriptions') ? { text: 'cough for three days', delayMs: 150 } : { text: NOTE, delayMs: 300, chunks: 8 },
    );
    const engineEnv = { TRANSCRIPTION_ENGINE: 'openai', GENERATION_ENGINE: 'openai', OPENAI_BASE_URL: engine.baseUrl, OPENAI_API_KEY: 'sk-test' };
    // The database (migrated) and the accounts come from an API process inside the test, which takes no traffic.
    setup = await createTestApp({ ROLE: 'api', GENERATION_SWEEP_SECONDS: '0', LOGIN_RATE_LIMIT_PER_MINUTE: '10000', ...s3.env(), ...engineEnv });
    shared = sharedSettings({
      databaseUrl: setup.ctx.config.databaseUrl!,
      s3Env: s3.env(),
      env: {
        ...engineEnv,
        JWT_SECRET: setup.ctx.config.jwtSecret,
        JOB_LEASE_SECONDS: '3',
        GENERATION_LEASE_SECONDS: '3',
        GENERATION_SWEEP_SECONDS: '1',
        TRANSCRIPTION_WORKERS: '2',
        PART_WAIT_SECONDS: '60',
      },
    });
    await Promise.all([start('api1', 'api'), start('api2', 'api'), start('api3', 'api'), start('worker1', 'worker'), start('worker2', 'worker')]);
    balancer = await startBalancer(apis().map((p) => p.base));
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([...processes.values()].map((p) => p.stop('SIGKILL')));
    await balancer?.close();
    await setup?.close();
    await engine?.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'loses no part, writes each document once, debits each once and answers no 5xx through restarts and crashes',
    async () => {
      const people = await Promise.all(
        Array.from({ length: RECORDERS }, async () => {
          const u = await createUser(setup);
          await grantCredits(setup.ctx.db, { ownerUserId: u.id }, 10);
          return { ...u, token: await login(setup, u.email, u.password) };
        }),
      );
      const via = (method: string, url: string, token: string, body?: string | FormData, headers: Record<string, string> = {}) =>
        fetch(`${balancer.base}${url}`, { method, body, headers: { authorization: `Bearer ${token}`, ...headers } });

      const seen: number[] = [];
      let polling = true;
      const phones = people.slice(0, 4).map(async (p) => {
        while (polling) {
          const res = await via('GET', '/v1/consultation_sessions/active/status', p.token);
          await res.arrayBuffer();
          seen.push(res.status);
          await new Promise((r) => setTimeout(r, 100));
        }
      });

      /** A recorder as the app's upload queue is: each part sent until it is stored, in order, then the finish. */
      const recorder = async (p: (typeof people)[number]) => {
        const created = await via('POST', '/v1/consultation_sessions', p.token, JSON.stringify({ consultation_type_id: 'general_consultation' }), {
          'content-type': 'application/json',
        });
        expect(created.status).toBe(201);
        const id = ((await created.json()) as { consultation_session: { id: string } }).consultation_session.id;
        for (let order = 0; order < PARTS; order++) {
          for (;;) {
            const form = new FormData();
            form.append('order', String(order));
            form.append('audio_file', new Blob([part], { type: 'audio/webm' }), 'part.webm');
            const res = await via('POST', `/v1/consultation_sessions/${id}/audios`, p.token, form);
            await res.arrayBuffer();
            seen.push(res.status);
            if (res.status === 201 || res.status === 200) break;
            await new Promise((r) => setTimeout(r, 200));
          }
          await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
        }
        const finished = await via('PUT', `/v1/consultation_sessions/${id}/finish`, p.token, JSON.stringify({ parts: PARTS }), {
          'content-type': 'application/json',
        });
        seen.push(finished.status);
        expect(finished.status).toBe(200);
        return id;
      };

      /** The browser: follows the main document through the proxy (another process, often) until it is written. */
      const follow = async (p: (typeof people)[number], id: string) => {
        const deadline = Date.now() + 90_000;
        while (Date.now() < deadline) {
          const res = await via('GET', `/v1/consultation_sessions/${id}/generated_documents/main/stream`, p.token);
          seen.push(res.status);
          if (res.status === 404) {
            await res.arrayBuffer();
            await new Promise((r) => setTimeout(r, 300));
            continue;
          }
          const text = await res.text();
          if (/event: done/.test(text)) {
            return text
              .split('\n\n')
              .filter((b) => b.startsWith('event: delta'))
              .map((b) => (JSON.parse(b.split('\ndata: ')[1]!) as { text: string }).text)
              .join('');
          }
          // Ended early (its process stopped) or the writing failed: the browser opens it again.
          await new Promise((r) => setTimeout(r, 300));
        }
        throw new Error(`document of ${id} not followed to its end`);
      };

      /** The operator: every API process restarted in turn, a worker killed, an API process killed while writing. */
      const stops: { name: string; signal: string; code: number | null; ms: number; upstreams: number }[] = [];
      const chaos = async () => {
        const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
        const restart = async (name: string, role: Role, signal: 'SIGTERM' | 'SIGKILL') => {
          const old = processes.get(name)!;
          // A browser's connection kept alive, idle, must not hold the stopping process for its whole timeout.
          const agent = new Agent({ keepAlive: true });
          if (role === 'api')
            await new Promise<void>((resolve, reject) => httpGet(`${old.base}/healthz`, { agent }, (r) => r.resume().on('end', resolve)).on('error', reject));
          const end = await old.stop(signal);
          agent.destroy();
          stops.push({ name, signal, code: end.code, ms: end.ms, upstreams: apis().length });
          const fresh = await startServerProcess(`${name}b`, role, shared);
          processes.set(name, fresh);
          balancer.setUpstreams(apis().map((x) => x.base));
        };
        await pause(1000);
        await restart('api1', 'api', 'SIGTERM');
        await restart('worker1', 'worker', 'SIGKILL');
        await restart('api2', 'api', 'SIGTERM');
        await restart('api3', 'api', 'SIGTERM');
      };

      const [ids] = await Promise.all([Promise.all(people.map(recorder)), chaos()]);
      // Now documents are being written: one API process dies mid-document and another takes them over.
      const followed = Promise.all(people.map((p, i) => follow(p, ids[i]!)));
      await new Promise((r) => setTimeout(r, 400));
      const victim = processes.get('api1')!;
      await victim.stop('SIGKILL');
      processes.delete('api1');
      balancer.setUpstreams(apis().map((x) => x.base));
      const texts = await followed;
      polling = false;
      await Promise.all(phones);

      const diagnostics = JSON.stringify({
        stops,
        statuses: [...balancer.statuses],
        retried: balancer.retried,
        errors: balancer.errors.filter((e) => !e.endsWith('ECONNREFUSED')),
      });
      // No answer was a server error, through three graceful restarts and two crashes.
      const errors = [...balancer.statuses].filter(([status]) => status >= 500);
      expect(errors, diagnostics).toEqual([]);
      expect(
        seen.filter((s) => s >= 500),
        diagnostics,
      ).toEqual([]);
      for (const s of stops.filter((x) => x.signal === 'SIGTERM')) {
        expect(s.code, diagnostics).toBe(0);
        expect(s.ms, diagnostics).toBeLessThan(12_000);
      }

      // Every part stored once and transcribed.
      const parts = await setup.ctx.db.select().from(audioChunks).where(inArray(audioChunks.sessionId, ids));
      expect(parts).toHaveLength(RECORDERS * PARTS);
      expect(parts.filter((x) => x.transcriptionStatus === 'done' && x.transcript === 'cough for three days')).toHaveLength(RECORDERS * PARTS);
      for (const id of ids)
        expect(
          parts
            .filter((x) => x.sessionId === id)
            .map((x) => x.order)
            .sort((a, b) => a - b),
        ).toEqual(Array.from({ length: PARTS }, (_, i) => i));

      // Every document written once: one version, done, the engine's text once (not two drafts joined).
      const docs = await setup.ctx.db.select().from(generatedDocuments).where(inArray(generatedDocuments.sessionId, ids));
      expect(docs).toHaveLength(RECORDERS);
      for (const d of docs) {
        expect(d).toMatchObject({ version: 1, status: 'done' });
        expect(d.text.split(NOTE)).toHaveLength(2);
      }
      // What the browsers saw is the document, whatever process they were following.
      for (const text of texts) expect(text.split(NOTE)).toHaveLength(2);

      // One credit per document, whatever process wrote it and however many times it was taken over.
      const debits = await setup.ctx.db
        .select({ documentId: creditLedger.documentId, total: sql<number>`sum(${creditLedger.amount})::int` })
        .from(creditLedger)
        .where(
          inArray(
            creditLedger.documentId,
            docs.map((d) => d.id),
          ),
        )
        .groupBy(creditLedger.documentId);
      expect(debits).toHaveLength(RECORDERS);
      for (const d of debits) expect(d.total).toBe(-1);
    },
    LARGE ? 1_200_000 : 240_000,
  );
});
