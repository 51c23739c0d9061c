/**
 * Recorded-part ingest: 50, 200 and 1,000 concurrent recording sessions, each sending a 5-second part every
 * 5 s, against the real app (parts stored on disk, rows in the database; transcription workers off so only
 * ingest is measured). Prints throughput, latency and the server's memory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { consultationSessions } from '../server/src/db/schema.js';
import { makeWebm } from '../server/src/test-support/audio-fixtures.js';
import { startApp } from './support.js';

const run = promisify(execFile);
const LEVELS = (process.env.BENCH_LEVELS ?? '50,200,1000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const dir = mkdtempSync(path.join(tmpdir(), 'cn-ingest-'));
const part = makeWebm(dir, 'part', 5);

const server = await startApp({ TRANSCRIPTION_WORKERS: '0' });
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
console.log(`\nRecorded-part ingest (${server.database.kind}; a ${(part.length / 1024).toFixed(1)} KB part every 5 s per session, ${ROUNDS} rounds)`);
console.log('  sessions  parts/s  p50 ms  p99 ms  failures  server RSS');
for (const n of LEVELS) {
  const people = await server.createUsers(n, `ingest${n}`);
  const sessions = await server.database.db
    .insert(consultationSessions)
    .values(people.map((p) => ({ userId: p.id, consultationTypeId: 'general_consultation' })))
    .returning({ id: consultationSessions.id, userId: consultationSessions.userId });
  const tokens = new Map(people.map((p) => [p.id, p.token]));
  const file = path.join(dir, `load-${n}.json`);
  writeFileSync(file, JSON.stringify({ base: server.base, part: part.toString('base64'), rounds: ROUNDS, sessions: sessions.map((s) => ({ id: s.id, token: tokens.get(s.userId) })) }));
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/chunk-load.ts', file], { maxBuffer: 1024 * 1024 });
  clearInterval(sampler);
  const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as { perSecond: number; p50: number; p99: number; failures: number };
  console.log(`  ${String(n).padStart(8)}  ${r.perSecond.toFixed(1).padStart(7)}  ${r.p50.toFixed(0).padStart(6)}  ${r.p99.toFixed(0).padStart(6)}  ${String(r.failures).padStart(8)}  ${mb(peakRss)} MB`);
}
await server.close();
rmSync(dir, { recursive: true, force: true });
