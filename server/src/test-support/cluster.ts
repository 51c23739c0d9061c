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

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type Role = 'api' | 'worker';

export type ServerProcess = {
  name: string;
  role: Role;
  /** http://127.0.0.1:port */
  base: string;
  child: ChildProcess;
  /** Every line the process wrote (its JSON log). */
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
    PORT: '0',
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://clinic.test',
    ...opts.s3Env,
    ...opts.env,
  };
}

export async function startServerProcess(name: string, role: Role, shared: Record<string, string>, extra: Record<string, string> = {}): Promise<ServerProcess> {
  // Its own folder, as on its own machine, unless the deployment shares one (files on a shared volume).
  const given = extra.DATA_DIR ?? shared.DATA_DIR;
  const dataDir = given ?? mkdtempSync(path.join(tmpdir(), `cn-${name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...shared, ...extra, ROLE: role, DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web-build') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      if (!given) rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${lines.slice(-20).join('\n')}`)), 60_000);
    const read = (stream: NodeJS.ReadableStream) => {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        rest += chunk.toString('utf8');
        let end: number;
        while ((end = rest.indexOf('\n')) >= 0) {
          const line = rest.slice(0, end);
          rest = rest.slice(end + 1);
          lines.push(line);
          const ready = /Ready on http:\/\/localhost:(\d+)/.exec(line);
          if (ready) {
            clearTimeout(timer);
            resolve(`http://127.0.0.1:${ready[1]}`);
          }
        }
      });
    };
    read(child.stdout!);
    read(child.stderr!);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${lines.slice(-20).join('\n')}`));
    });
  });
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
