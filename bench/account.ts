/**
 * GET /v1/account (token check + database read) against a bare Fastify hello-world in the same run, and the
 * cost of a login (argon2id). Prints figures; bench/README.md keeps the latest ones.
 * Run: npm run bench   (BENCH_SECONDS to change the duration of each load, default 10)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { buildApp } from '../server/src/app.js';
import { hashPassword, verifyPassword } from '../server/src/auth/passwords.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/client.js';
import { users } from '../server/src/db/schema.js';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;

/** The load comes from a separate autocannon process, so it does not share the server's event loop. */
async function load(url: string, headers: Record<string, string> = {}) {
  const args = ['-c', String(CONNECTIONS), '-d', String(SECONDS), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  const { stdout } = await run(path.resolve('node_modules/.bin/autocannon'), args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as autocannon.Result;
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main() {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });

  const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'none'), LOG_LEVEL: 'warn', LOGIN_RATE_LIMIT_PER_MINUTE: '100000' });
  // BENCH_DATABASE_URL measures on PostgreSQL instead of the embedded PGlite.
  const database = await openDatabase({ dataDir: ':memory:', databaseUrl: process.env.BENCH_DATABASE_URL });
  const { app } = await buildApp({ config, db: database.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const password = 'bench-password';
  await database.db
    .insert(users)
    .values({ name: 'Bench', email: 'bench@clinic.test', passwordHash: await hashPassword(password) })
    .onConflictDoUpdate({ target: users.email, set: { passwordHash: await hashPassword(password) } });

  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const loginTimes: number[] = [];
  let token = '';
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { email: 'bench@clinic.test', password } }),
    });
    loginTimes.push(performance.now() - t0);
    token = (res.headers.get('authorization') ?? '').slice(7);
  }
  const hashT0 = performance.now();
  const hash = await hashPassword(password);
  const hashMs = performance.now() - hashT0;
  const verifyT0 = performance.now();
  await verifyPassword(hash, password);
  const verifyMs = performance.now() - verifyT0;

  const reference = await load(`http://127.0.0.1:${(hello.server.address() as AddressInfo).port}/`);
  const account = await load(`${base}/v1/account`, { authorization: `Bearer ${token}` });

  console.log(
    `\nGET /v1/account vs bare Fastify hello-world (${CONNECTIONS} connections, ${SECONDS} s each, ${database.kind === 'pglite' ? 'PGlite in memory' : 'PostgreSQL'})`,
  );
  console.log(`  hello-world      ${reference.rps.toFixed(0)} req/s   p99 ${reference.p99} ms`);
  console.log(`  GET /v1/account  ${account.rps.toFixed(0)} req/s   p99 ${account.p99} ms`);
  console.log(`  ratio            ${(account.rps / reference.rps).toFixed(3)} of hello-world throughput`);
  console.log(`\nLogin (argon2id m=19 MiB, t=2, p=1)`);
  console.log(`  POST /v1/login   median ${percentile(loginTimes, 50).toFixed(1)} ms   p95 ${percentile(loginTimes, 95).toFixed(1)} ms (20 sequential)`);
  console.log(`  hash ${hashMs.toFixed(1)} ms, verify ${verifyMs.toFixed(1)} ms`);

  await app.close();
  await hello.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
