/**
 * Several real server processes on one PostgreSQL database and one S3-compatible bucket, for the scale test and
 * the benchmarks: each is `server/src/main.ts` in its own Node process with its role, its own DATA_DIR (as if on
 * its own machine) and the settings a deployment shares (database, bucket, keys). A process can be stopped as an
 * orchestrator does (SIGTERM) or killed (SIGKILL), and started again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type Role = 'api' | 'worker';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

export type ServerProcess = {
  name: string;
  role: Role;
  /** http://127.0.0.1:port */
  base: string;
  child: ChildProcess;
  /** The last 500 lines the process wrote (its JSON log). */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (a graceful stop) or SIGKILL (a crash); resolves when the process has gone. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
};

/** What every process of one deployment shares. */
export function sharedSettings(opts: { databaseUrl: string; s3Env: Record<string, string>; env?: Record<string, string> }): Record<string, string> {
  return {
    DATABASE_URL: opts.databaseUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    AUDIT_KEY: randomBytes(32).toString('base64'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://clinic.test',
    ...opts.s3Env,
    ...opts.env,
  };
}

/** `nodeArgs`: options for Node itself (a profiler: `--cpu-prof`, which NODE_OPTIONS refuses). */
export async function startServerProcess(
  name: string,
  role: Role,
  shared: Record<string, string>,
  extra: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  // Its own folder, as on its own machine, unless the deployment shares one (files on a shared volume).
  const given = extra.DATA_DIR ?? shared.DATA_DIR;
  const dataDir = given ?? mkdtempSync(path.join(tmpdir(), `cn-${name}-`));
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...shared, ...extra, ROLE: role, PORT: String(port), DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web-build') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      if (!given) rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  const read = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      rest += chunk.toString('utf8');
      let end: number;
      while ((end = rest.indexOf('\n')) >= 0) {
        lines.push(rest.slice(0, end));
        if (lines.length > 500) lines.splice(0, lines.length - 500);
        rest = rest.slice(end + 1);
      }
    });
  };
  read(child.stdout!);
  read(child.stderr!);
  // Ready when it answers its health check (whatever LOG_LEVEL says).
  const base = `http://127.0.0.1:${port}`;
  let gone: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((end) => (gone = end));
  for (const started = Date.now(); ; ) {
    if (gone) throw new Error(`${name} exited (${gone.code ?? gone.signal}) before it was ready:\n${lines.slice(-20).join('\n')}`);
    if (Date.now() - started > 60_000) throw new Error(`${name} did not start within 60 s:\n${lines.slice(-20).join('\n')}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    role,
    base,
    child,
    lines,
    exited,
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const end = await exited;
      return { ...end, ms: Date.now() - started };
    },
  };
}
