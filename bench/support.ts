/** Shared pieces of the benchmarks: a bare Fastify reference, an in-process app, and load from a separate process. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp, type BuildOptions } from '../server/src/app.js';
import { hashPassword } from '../server/src/auth/passwords.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/client.js';
import { users } from '../server/src/db/schema.js';

const run = promisify(execFile);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = 10;

/** The load comes from a separate autocannon process, so it does not share the server's event loop. */
export async function load(url: string, headers: Record<string, string> = {}, connections = CONNECTIONS) {
  const args = ['-c', String(connections), '-d', String(SECONDS), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  const { stdout } = await run(path.resolve('node_modules/.bin/autocannon'), args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as autocannon.Result;
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

export async function startHelloWorld() {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(hello.server.address() as AddressInfo).port}/`, close: () => hello.close() };
}

/** The real app on PGlite in memory (or BENCH_DATABASE_URL), quiet logs, listening on a free port. */
export async function startApp(env: Record<string, string> = {}, engines: Pick<BuildOptions, 'transcriber' | 'logStream'> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'none'), LOG_LEVEL: 'warn', LOGIN_RATE_LIMIT_PER_MINUTE: '100000', ...env });
  const database = await openDatabase({ dataDir: ':memory:', databaseUrl: process.env.BENCH_DATABASE_URL });
  const { app, ctx } = await buildApp({ config, db: database.db, ...engines });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const passwordHash = await hashPassword('bench-password');
  return {
    app,
    ctx,
    database,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    /** Users straight in the database, each with a session token. */
    async createUsers(n: number, prefix = 'bench') {
      const rows = await database.db
        .insert(users)
        .values(Array.from({ length: n }, (_, i) => ({ name: `Bench ${i}`, email: `${prefix}-${i}-${Date.now()}@clinic.test`, passwordHash })))
        .returning({ id: users.id });
      return Promise.all(rows.map(async (r) => ({ id: r.id, token: await ctx.sessions.issue(r.id) })));
    },
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The knee of an ingest curve: the fewest recorders at which the server no longer keeps their pace (fewer than
 * 95 % of the parts offered answered per second: one per recorder every 5 s, `rounds` of them over rounds + 1
 * periods, as bench/chunk-load.ts sends them), fails a part, or its steady p99 passes 1 s.
 */
export function ingestKnee(levels: { recorders: number; perSecond: number; steadyP99: number; failures: number }[], rounds: number): string {
  const pace = (recorders: number) => (recorders / 5) * (rounds / (rounds + 1));
  const knee = levels.find((l) => l.perSecond < 0.95 * pace(l.recorders) || l.steadyP99 > 1000 || l.failures > 0);
  return knee ? `knee at ${knee.recorders} recorders` : `no knee up to ${Math.max(...levels.map((l) => l.recorders))} recorders`;
}
