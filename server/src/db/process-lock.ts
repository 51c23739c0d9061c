/**
 * PGlite's files belong to one process at a time. Whoever opens DATA_DIR/db first writes DATA_DIR/db.lock
 * with its pid; the server also writes its port and whether it listens on the admin socket
 * (admin/admin-socket.ts), so the admin CLI sends its command to the running server instead of opening the files
 * a second time.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type LockInfo = { pid: number; port?: number; adminSocket?: boolean };

const lockFile = (dataDir: string) => path.join(dataDir, 'db.lock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock of another live process, if any; a stale lock (crashed process) counts as none. */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(lockFile(dataDir), 'utf8')) as LockInfo;
    return info.pid !== process.pid && isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

export function writeLock(dataDir: string, info: Omit<LockInfo, 'pid'>): void {
  writeFileSync(lockFile(dataDir), JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 });
}

export function releaseLock(dataDir: string): void {
  try {
    const info = JSON.parse(readFileSync(lockFile(dataDir), 'utf8')) as LockInfo;
    if (info.pid === process.pid) rmSync(lockFile(dataDir));
  } catch {
    // already gone
  }
}

/** Waits (briefly) for another process to let go of the embedded database, e.g. an admin command finishing. */
export async function waitForLock(dataDir: string, timeoutMs: number): Promise<LockInfo | undefined> {
  const until = Date.now() + timeoutMs;
  let lock = readLiveLock(dataDir);
  while (lock && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    lock = readLiveLock(dataDir);
  }
  return lock;
}
