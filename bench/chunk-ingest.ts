/**
 * Recorded-part ingest: 100, 500, 1,000 and 2,000 concurrent recording sessions (BENCH_LEVELS), each sending a
 * 5-second part every 5 s, against the real app (parts stored on disk, rows in the database; transcription
 * workers off so only ingest is measured) and, under the same load in the same run, against a bare Fastify
 * process that only writes the part to a file (bare-upload.ts). Prints throughput, latency, the server's memory
 * and the knee of each curve.
 */
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { consultationSessions } from '../server/src/db/schema.js';
import { makeWebm } from '../server/src/test-support/audio-fixtures.js';
import { ingestKnee, startApp } from './support.js';

const run = promisify(execFile);
const LEVELS = (process.env.BENCH_LEVELS ?? '100,500,1000,2000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const dir = mkdtempSync(path.join(tmpdir(), 'cn-ingest-'));
const part = makeWebm(dir, 'part', 5);

type Ingest = { perSecond: number; p50: number; p99: number; steadyP99: number; failures: number };
async function ingest(base: string, sessions: { id: string; token: string }[], label: string): Promise<Ingest> {
  const file = path.join(dir, `load-${label}.json`);
  writeFileSync(file, JSON.stringify({ base, part: part.toString('base64'), rounds: ROUNDS, sessions }));
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/chunk-load.ts', file], { maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Ingest;
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const row = (label: string, n: number, r: Ingest, rss = '') =>
  console.log(
    `  ${label.padEnd(12)}  ${String(n).padStart(9)}  ${r.perSecond.toFixed(1).padStart(7)}  ${r.p50.toFixed(0).padStart(6)}  ${r.p99.toFixed(0).padStart(6)}  ${r.steadyP99.toFixed(0).padStart(13)}  ${String(r.failures).padStart(8)}  ${rss}`,
  );

// The reference first, on its own: what this machine, the load generator and Fastify's multipart give.
const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-upload.ts', path.join(dir, 'bare')], { stdio: ['ignore', 'pipe', 'inherit'] });
const bareBase = await new Promise<string>((resolve, reject) => {
  bare.stdout.once('data', (d: Buffer) => resolve(d.toString().trim().split('\n')[0]!));
  bare.once('exit', (code) => reject(new Error(`bare upload server exited (${code})`)));
});
console.log(`\nRecorded-part ingest (a ${(part.length / 1024).toFixed(1)} KB part every 5 s per recorder, ${ROUNDS} rounds; steady leaves out the first)`);
console.log('  server        recorders  parts/s  p50 ms  p99 ms  steady p99 ms  failures  server RSS');
const bareCurve = [];
for (const n of LEVELS) {
  const r = await ingest(
    bareBase,
    Array.from({ length: n }, () => ({ id: randomUUID(), token: 'none' })),
    `bare-${n}`,
  );
  row('bare Fastify', n, r);
  bareCurve.push({ recorders: n, ...r });
}
bare.kill('SIGTERM');

const server = await startApp({ TRANSCRIPTION_WORKERS: '0' });
const appCurve = [];
for (const n of LEVELS) {
  const people = await server.createUsers(n, `ingest${n}`);
  const sessions = await server.database.db
    .insert(consultationSessions)
    .values(people.map((p) => ({ userId: p.id, consultationTypeId: 'general_consultation' })))
    .returning({ id: consultationSessions.id, userId: consultationSessions.userId });
  const tokens = new Map(people.map((p) => [p.id, p.token]));
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  const r = await ingest(
    server.base,
    sessions.map((s) => ({ id: s.id, token: tokens.get(s.userId)! })),
    `app-${n}`,
  );
  clearInterval(sampler);
  row(server.database.kind, n, r, `${mb(peakRss)} MB`);
  appCurve.push({ recorders: n, ...r });
}
console.log(`  bare Fastify: ${ingestKnee(bareCurve, ROUNDS)}; ${server.database.kind}: ${ingestKnee(appCurve, ROUNDS)}`);
await server.close();
rmSync(dir, { recursive: true, force: true });
