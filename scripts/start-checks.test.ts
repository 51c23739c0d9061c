import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { portInUse, startBlocker } from './lib/start-checks.mjs';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function dataDir(lock?: object) {
  const dir = mkdtempSync(path.join(tmpdir(), 'start-checks-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  if (lock) writeFileSync(path.join(dir, 'db.lock'), JSON.stringify(lock));
  return dir;
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { server, port: (server.address() as { port: number }).port };
}

async function freePort(): Promise<number> {
  const { server, port } = await listening();
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm start checks', () => {
  it('stops at once on a data folder another live server holds, naming the folder and its port', async () => {
    // The parent process is alive and is not this one: it stands for the server already running.
    const dir = dataDir({ pid: process.ppid, port: 8123 });
    const blocker = await startBlocker({ DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1' });
    expect(blocker).toContain(dir);
    expect(blocker).toContain('8123');
  });

  it('ignores the lock of a process that is gone, and a lock with no port yet (an admin command the server waits for)', async () => {
    const port = String(await freePort());
    expect(await startBlocker({ DATA_DIR: dataDir({ pid: 2 ** 22 + 12345, port: 8123 }), PORT: port, HOST: '127.0.0.1' })).toBeUndefined();
    expect(await startBlocker({ DATA_DIR: dataDir({ pid: process.ppid }), PORT: port, HOST: '127.0.0.1' })).toBeUndefined();
  });

  it('stops at once on a port in use, naming it', async () => {
    const { port } = await listening();
    expect(await portInUse(port, '127.0.0.1')).toBe(true);
    const blocker = await startBlocker({ DATA_DIR: dataDir(), PORT: String(port), HOST: '127.0.0.1' });
    expect(blocker).toContain(`Port ${port} is already in use`);
  });

  it('with PostgreSQL the data folder is not the database: only the port counts', async () => {
    const dir = dataDir({ pid: process.ppid, port: 8123 });
    expect(await startBlocker({ DATABASE_URL: 'postgres://x', DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1' })).toBeUndefined();
  });
});
