/**
 * The real server, started as `npm start` starts it (embedded database) under a permissive umask: admin
 * commands reach it only through its socket, never over HTTP however the path is spelled, and nothing it
 * writes under DATA_DIR can be read by other users.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-admin-'));
// Embedded database on purpose: the admin socket exists for PGlite, which one process holds at a time.
const { TEST_DATABASE_URL: _pg, DATABASE_URL: _db, ...baseEnv } = process.env;
const env = {
  ...baseEnv,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  RETENTION_SWEEP_SECONDS: '0',
  TRANSCRIPTION_ENGINE: 'none',
  WEB_DIST: path.join(dataDir, 'no-web'),
};

let server: ChildProcess;
let baseUrl = '';

function modesLooserThanOwner(dir: string): string[] {
  const loose: string[] = [];
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) loose.push(`${path.relative(dir, p)} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(path.join(p, n));
  };
  visit(dir);
  return loose;
}

beforeAll(async () => {
  // A file an older version (or a careless copy) left readable by everyone must be repaired at start.
  mkdirSync(path.join(dataDir, 'files'), { recursive: true });
  writeFileSync(path.join(dataDir, 'files', 'left-over.bin'), 'audio');
  chmodSync(path.join(dataDir, 'files', 'left-over.bin'), 0o666);
  chmodSync(path.join(dataDir, 'files'), 0o777);
  server = spawn('sh', ['-c', `umask 000; exec "${path.join(root, 'node_modules/.bin/tsx')}" server/src/main.ts`], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 50_000);
    const onData = (c: Buffer) => {
      out += String(c);
      const m = /Ready on (http:\/\/localhost:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('admin commands on a running server', () => {
  it('reach it through the socket in DATA_DIR', async () => {
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      ['server/src/admin/cli.ts', 'create-organization', '--name', 'Clínica Segura', '--admin-email', 'admin@segura.test'],
      { cwd: root, env },
    );
    expect(stdout.trim().split('\n').at(-1)).toMatch(/\/signup\?ref=\/organization\/invitations\/[0-9a-f]{64}$/);
  }, 60_000);

  it('are not reachable over HTTP, however the path is spelled', async () => {
    const body = JSON.stringify({ command: 'create-organization', args: { name: 'Intruder', 'admin-email': 'x@evil.test' } });
    for (const p of [
      '/internal/admin/run',
      '/%69nternal/admin/run',
      '/%69%6Eternal/admin/run',
      '//internal/admin/run',
      '/internal/admin/run/',
      '/INTERNAL/admin/run',
    ]) {
      const res = await fetch(baseUrl + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('signup');
    }
  });

  it('leave nothing under DATA_DIR readable by other users, even under umask 000', () => {
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['db', 'admin.sock', 'jwt-secret', 'files']));
    expect(modesLooserThanOwner(dataDir)).toEqual([]);
  });
});
