/**
 * GET /v1/consultation_sessions/active/status, polled every 5 s by every phone-mode user, as phones do it:
 * 5,000 different users (each its own token), first at their real cadence (1,000 polls a second, open loop, long
 * enough for every answer to be read, kept and read again), then as fast as one process answers them, against a
 * bare Fastify hello-world in the same run. Logging at the default level (info) into a counting stream, so the
 * log volume per 1,000 polls is measured too. Goal: at least 0.3 of hello-world on PostgreSQL.
 * BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL; BENCH_USERS and BENCH_CADENCE_SECONDS change the load.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { CONNECTIONS, SECONDS, load, startApp, startHelloWorld } from './support.js';

const run = promisify(execFile);
const USERS = Number(process.env.BENCH_USERS ?? 5000);
const POLL_EVERY_S = 5;
// Longer than the answer is kept (30 s), so the figures include the reads that follow its expiry.
const CADENCE_SECONDS = Number(process.env.BENCH_CADENCE_SECONDS ?? 40);
const PATH = '/v1/consultation_sessions/active/status';

let logBytes = 0;
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    logBytes += chunk.length;
    done();
  },
});

const hello = await startHelloWorld();
const server = await startApp({ LOG_LEVEL: 'info' }, { logStream });
const users = await server.createUsers(USERS);
const dir = mkdtempSync(path.join(tmpdir(), 'cn-poll-'));
const tokensFile = path.join(dir, 'tokens');
writeFileSync(tokensFile, users.map((u) => u.token).join('\n'));

async function poll(opts: { connections: number; seconds: number; rate?: number }) {
  const cpu = process.cpuUsage();
  const bytes = logBytes;
  const { stdout } = await run(process.execPath, ['bench/poll-load.mjs', JSON.stringify({ url: server.base, path: PATH, tokensFile, ...opts })], {
    maxBuffer: 1 << 24,
  });
  const used = process.cpuUsage(cpu);
  const r = JSON.parse(stdout) as { rps: number; p50: number; p99: number; total: number; non2xx: number; errors: number };
  if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  return { ...r, cpuMsPer1000: ((used.user + used.system) / 1000 / r.total) * 1000, logKbPer1000: ((logBytes - bytes) / 1024 / r.total) * 1000 };
}

const reference = await load(hello.url);
const rate = USERS / POLL_EVERY_S;
// The first round after a start: every answer and token is read from the database once.
const cold = await poll({ connections: 100, seconds: POLL_EVERY_S, rate });
const cadence = await poll({ connections: 100, seconds: CADENCE_SECONDS, rate });
const flat = await poll({ connections: CONNECTIONS, seconds: SECONDS });

console.log(`\n${PATH}: ${USERS} users, each with its own token (${server.database.kind})`);
console.log(`  hello-world (${CONNECTIONS} connections)           ${reference.rps.toFixed(0)} req/s   p99 ${reference.p99} ms`);
console.log(
  `  first ${POLL_EVERY_S} s after a start (all read)    ${cold.rps.toFixed(0)} req/s   p50 ${cold.p50} ms   p99 ${cold.p99} ms   server CPU ${cold.cpuMsPer1000.toFixed(0)} ms per 1,000 polls`,
);
console.log(
  `  then every ${POLL_EVERY_S} s each, ${rate} polls/s, ${CADENCE_SECONDS} s  ${cadence.rps.toFixed(0)} req/s   p50 ${cadence.p50} ms   p99 ${cadence.p99} ms   server CPU ${cadence.cpuMsPer1000.toFixed(0)} ms per 1,000 polls   log ${cadence.logKbPer1000.toFixed(1)} KB per 1,000`,
);
console.log(
  `  as fast as answered (${CONNECTIONS} connections)  ${flat.rps.toFixed(0)} req/s   p99 ${flat.p99} ms   log ${flat.logKbPer1000.toFixed(1)} KB per 1,000`,
);
console.log(`  ratio             ${(flat.rps / reference.rps).toFixed(3)} (goal ≥ 0.3 on PostgreSQL)`);
console.log(`  phones per process at one poll per ${POLL_EVERY_S} s: about ${Math.floor((flat.rps * POLL_EVERY_S) / 1000) * 1000}`);
await server.close();
await hello.close();
rmSync(dir, { recursive: true, force: true });
