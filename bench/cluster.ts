/**
 * Beyond one process, on PostgreSQL (BENCH_DATABASE_URL, or a throwaway server started here):
 *  1. recorded-part ingest with 1 API process (straight, and behind the proxy) and with 3 behind the proxy
 *     (parts on a shared folder, no worker so that only ingest is measured), 200 and 1,000 concurrent recorders,
 *     against a bare Fastify upload process (bare-upload.ts) under the same load;
 *  2. active-status polls per second on one API process against a bare Fastify route in the same run;
 *  3. how many consultations one worker process transcribes in real time with the local speech engine: from a
 *     full queue, then with consultations recording live (the queue's depth over time at 20, 26 and 32).
 * Every server is its own Node process (server/src/main.ts with its ROLE); the load comes from other processes.
 */
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inArray, sql } from 'drizzle-orm';
import { createSessionTokens } from '../server/src/auth/session-tokens.js';
import { hashPassword } from '../server/src/auth/passwords.js';
import { openDatabase } from '../server/src/db/client.js';
import { audioChunks, consultationSessions, users } from '../server/src/db/schema.js';
import { makeWebm, speechWebm } from '../server/src/test-support/audio-fixtures.js';
import { startBalancer } from '../server/src/test-support/balancer.js';
import { sharedSettings, startServerProcess, type ServerProcess } from '../server/src/test-support/cluster.js';
// @ts-expect-error -- a plain ES module of the project's scripts, without type declarations
import { startThrowawayPostgres } from '../scripts/lib/postgres.mjs';
import { ingestKnee, load, startHelloWorld } from './support.js';

const run = promisify(execFile);
const LEVELS = (process.env.BENCH_LEVELS ?? '200,1000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SPEECH_PARTS = Number(process.env.BENCH_SPEECH_PARTS ?? 24);
// Consultations recording live against one worker, and for how many parts each (queue depth over time).
const SPEECH_LIVE = (process.env.BENCH_SPEECH_LIVE ?? '20,26,32').split(',').filter(Boolean).map(Number);
const SPEECH_ROUNDS = Number(process.env.BENCH_SPEECH_ROUNDS ?? 8);
let partSeconds = 8.5;
// Which measures to take (all by default): e.g. BENCH_CLUSTER=ingest BENCH_INGEST=1 for one process straight only;
// PROFILE_DIR=folder writes a CPU profile of each ingest API process there.
const MEASURES = (process.env.BENCH_CLUSTER ?? 'ingest,polls,speech').split(',');
const INGEST_SETUPS = [
  { name: '1', count: 1, proxied: false },
  { name: '1p', count: 1, proxied: true },
  { name: '3p', count: 3, proxied: true },
].filter((s) => (process.env.BENCH_INGEST ?? '1,1p,3p').split(',').includes(s.name));

const pgServer = process.env.BENCH_DATABASE_URL ? undefined : ((await startThrowawayPostgres()) as { url: string; stop(): void });
const databaseUrl = process.env.BENCH_DATABASE_URL ?? pgServer!.url;
const dir = mkdtempSync(path.join(tmpdir(), 'cn-cluster-'));
const files = path.join(dir, 'files');
const database = await openDatabase({ databaseUrl, dataDir: dir });
const shared = sharedSettings({ databaseUrl, s3Env: {}, env: { DATA_DIR: files, LOG_LEVEL: 'warn', LOGIN_RATE_LIMIT_PER_MINUTE: '100000' } });
// Every process must seal and open files with the same master key: a setting, not a file each makes.
shared.ENCRYPTION_KEY = Buffer.alloc(32, 3).toString('base64');
const tokens = createSessionTokens(database.db, { secret: shared.JWT_SECRET!, ttlSeconds: 3600 });
const passwordHash = await hashPassword('bench-password');

async function recorders(n: number, prefix: string) {
  const people = await database.db
    .insert(users)
    .values(Array.from({ length: n }, (_, i) => ({ name: `Bench ${i}`, email: `${prefix}-${i}-${Date.now()}@clinic.test`, passwordHash })))
    .returning({ id: users.id });
  const sessions = await database.db
    .insert(consultationSessions)
    .values(people.map((p) => ({ userId: p.id, consultationTypeId: 'general_consultation' })))
    .returning({ id: consultationSessions.id, userId: consultationSessions.userId });
  return Promise.all(sessions.map(async (s) => ({ id: s.id, token: await tokens.issue(s.userId) })));
}

async function startAll(names: string[], role: 'api' | 'worker', extra: Record<string, string> = {}) {
  return Promise.all(names.map((name) => startServerProcess(name, role, shared, extra)));
}
const stopAll = (ps: ServerProcess[]) => Promise.all(ps.map((p) => p.stop('SIGTERM')));

// 1. Ingest, 1 vs 3 API processes, and a bare Fastify upload process as the reference of the same run.
const part = makeWebm(dir, 'part', 5);
async function ingest(base: string, sessions: { id: string; token: string }[], label: string) {
  const file = path.join(dir, `load-${label}.json`);
  writeFileSync(file, JSON.stringify({ base, part: part.toString('base64'), rounds: ROUNDS, sessions }));
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/chunk-load.ts', file], { maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Ingest;
}
type Ingest = { perSecond: number; p50: number; p99: number; steadyP99: number; failures: number };
const row = (label: string, n: number, r: Ingest) =>
  console.log(
    `  ${label.padEnd(19)}  ${String(n).padStart(9)}  ${r.perSecond.toFixed(1).padStart(7)}  ${r.p50.toFixed(0).padStart(6)}  ${r.p99.toFixed(0).padStart(6)}  ${r.steadyP99.toFixed(0).padStart(13)}  ${String(r.failures).padStart(8)}`,
  );
if (MEASURES.includes('ingest')) {
  console.log(`\nRecorded-part ingest on PostgreSQL (a ${(part.length / 1024).toFixed(1)} KB part every 5 s per recorder, ${ROUNDS} rounds)`);
  // Steady: the rounds after the first (every recorder has connected once and the server is warm).
  console.log('  API processes        recorders  parts/s  p50 ms  p99 ms  steady p99 ms  failures');
  // The reference: what this machine, this load generator and Fastify's multipart give with nothing else.
  const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-upload.ts', path.join(dir, 'bare')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const bareBase = await new Promise<string>((resolve, reject) => {
    bare.stdout.once('data', (d: Buffer) => resolve(d.toString().trim().split('\n')[0]!));
    bare.once('exit', (code) => reject(new Error(`bare upload server exited (${code})`)));
  });
  const curve = [];
  for (const n of LEVELS) {
    const sessions = Array.from({ length: n }, () => ({ id: randomUUID(), token: 'none' }));
    const r = await ingest(bareBase, sessions, `bare-${n}`);
    row('bare Fastify', n, r);
    curve.push({ recorders: n, ...r });
  }
  console.log(`  bare Fastify: ${ingestKnee(curve, ROUNDS)}`);
  bare.kill('SIGTERM');
}
// One process straight, then through the proxy (its own cost, in this same process), then three behind it.
for (const { count, proxied } of MEASURES.includes('ingest') ? INGEST_SETUPS : []) {
  const profile: Record<string, string> = process.env.PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.PROFILE_DIR}` } : {};
  const apis = await startAll(
    Array.from({ length: count }, (_, i) => `ingest-api${i + 1}`),
    'api',
    profile,
  );
  const proxy = proxied ? await startBalancer(apis.map((p) => p.base)) : undefined;
  const curve = [];
  const label = `${count}${proxied ? ', via the proxy' : ', direct'}`;
  for (const n of LEVELS) {
    const sessions = await recorders(n, `ingest${count}x${n}${proxied}`);
    const r = await ingest(proxy?.base ?? apis[0]!.base, sessions, `${count}-${n}-${proxied}`);
    row(label, n, r);
    curve.push({ recorders: n, ...r });
  }
  console.log(`  ${label}: ${ingestKnee(curve, ROUNDS)}`);
  await proxy?.close();
  await stopAll(apis);
}

// 2. Active-status polls on one API process (its own Node process) against a bare Fastify route.
if (MEASURES.includes('polls')) {
  const [api] = await startAll(['poll-api'], 'api');
  const hello = await startHelloWorld();
  const [person] = await recorders(1, 'poll');
  const reference = await load(hello.url);
  const status = await load(`${api!.base}/v1/consultation_sessions/active/status`, { authorization: `Bearer ${person!.token}` });
  console.log('\nActive-status polls, one API process on PostgreSQL, against a bare Fastify route (same run)');
  console.log(`  hello-world     ${reference.rps.toFixed(0)} req/s   p99 ${reference.p99} ms`);
  console.log(`  active/status   ${status.rps.toFixed(0)} req/s   p99 ${status.p99} ms`);
  console.log(`  ratio           ${(status.rps / reference.rps).toFixed(3)} (goal ≥ 0.5)`);
  await hello.close();
  await stopAll([api!]);
}

// 3. One worker process, local speech engine: consultations transcribed in real time, with the speech processes
// started per part and long-lived (LOCAL_SPEECH_PROCESSES), one after the other in the same run.
const SPEECH_PROCESSES = (process.env.BENCH_SPEECH_PROCESSES ?? 'per-part,long-lived').split(',').filter(Boolean);
if (MEASURES.includes('speech')) {
  const speech = readFileSync(
    speechWebm(dir, 'speech', 'The patient has had a dry cough for three days, no fever, and takes ibuprofen four hundred milligrams when needed.'),
  );
  const [api] = await startAll(['speech-api'], 'api');
  for (const processes of SPEECH_PROCESSES) await speechCapacity(api!, speech, processes);
  await stopAll([api!]);
}

async function speechCapacity(api: ServerProcess, speech: Buffer, processes: string) {
  // Earlier parts (the ingest's tones, the other mode's speech) would be transcribed first: they leave the queue.
  await database.db.delete(audioChunks);
  const sessions = await recorders(SPEECH_PARTS, `speech-${processes}`);
  // Every part stored first (no worker yet), so that the worker's rate is measured from a full queue.
  for (const s of sessions) {
    const form = new FormData();
    form.append('order', '0');
    form.append('audio_file', new Blob([speech], { type: 'audio/webm' }), 'part.webm');
    const res = await fetch(`${api.base}/v1/consultation_sessions/${s.id}/audios`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${s.token}` },
    });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  }
  const ids = sessions.map((s) => s.id);
  const started = performance.now();
  const [worker] = await startAll([`speech-worker-${processes}`], 'worker', {
    TRANSCRIPTION_ENGINE: 'local',
    TRANSCRIPTION_WORKERS: '2',
    LOCAL_SPEECH_PROCESSES: processes,
  });
  for (;;) {
    const [row] = await database.db
      .select({
        left: sql<number>`count(*) filter (where ${audioChunks.transcriptionStatus} in ('pending', 'processing'))::int`,
        audioMs: sql<number>`coalesce(sum(${audioChunks.durationMs}), 0)::int`,
      })
      .from(audioChunks)
      .where(inArray(audioChunks.sessionId, ids));
    if (row!.left === 0) {
      const wall = (performance.now() - started) / 1000;
      const audio = row!.audioMs / 1000;
      console.log(
        `\nOne worker process (TRANSCRIPTION_WORKERS=2), local speech engine with ${processes} speech processes, espeak-ng speech, queue full at start`,
      );
      console.log(
        `  ${SPEECH_PARTS} parts, ${audio.toFixed(1)} s of audio in ${wall.toFixed(1)} s (start-up included): ${(audio / wall).toFixed(1)} consultations in real time`,
      );
      partSeconds = audio / SPEECH_PARTS;
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  // Then as consultations really arrive: N recorders each sending a part as long as the part every part's length,
  // the worker already running. The queue's depth over time tells whether it keeps up (flat) or falls behind (grows).
  for (const n of SPEECH_LIVE) {
    const live = await recorders(n, `live${n}-${processes}`);
    const liveIds = live.map((s) => s.id);
    const depth = async () =>
      (
        await database.db
          .select({ left: sql<number>`count(*) filter (where ${audioChunks.transcriptionStatus} in ('pending', 'processing'))::int` })
          .from(audioChunks)
          .where(inArray(audioChunks.sessionId, liveIds))
      )[0]!.left;
    // Before each round's parts: what is left of the rounds before (0 when it keeps up), and the deepest it got.
    const backlog: number[] = [];
    let deepest = 0;
    const sampler = setInterval(() => void depth().then((d) => (deepest = Math.max(deepest, d))), 250);
    const t0 = performance.now();
    for (let round = 0; round < SPEECH_ROUNDS; round++) {
      if (round > 0) backlog.push(await depth());
      const due = t0 + (round + 1) * partSeconds * 1000;
      await Promise.all(
        live.map(async (s) => {
          const form = new FormData();
          form.append('order', String(round));
          form.append('audio_file', new Blob([speech], { type: 'audio/webm' }), 'part.webm');
          const res = await fetch(`${api.base}/v1/consultation_sessions/${s.id}/audios`, {
            method: 'POST',
            body: form,
            headers: { authorization: `Bearer ${s.token}` },
          });
          await res.arrayBuffer();
        }),
      );
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
    backlog.push(await depth());
    const sent = performance.now();
    while ((await depth()) > 0) await new Promise((r) => setTimeout(r, 250));
    clearInterval(sampler);
    const drain = (performance.now() - sent) / 1000;
    console.log(
      `  ${String(n).padStart(3)} consultations live (a ${partSeconds.toFixed(1)}-s part each every ${partSeconds.toFixed(1)} s, ${SPEECH_ROUNDS} rounds): ` +
        `parts left before each next round ${backlog.join(' ')}, deepest ${deepest} of ${n}; the last round transcribed ${drain.toFixed(1)} s after the round ended`,
    );
  }
  await stopAll([worker!]);
}

await database.close();
pgServer?.stop();
rmSync(dir, { recursive: true, force: true });
