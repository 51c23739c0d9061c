/**
 * Private folders for the decrypted copies that tools need as files (ffmpeg, pdftoppm, tesseract, a speech
 * engine). They live in DATA_DIR/tmp/plaintext: the folder is 0700 and every file in it 0600, each use gets its
 * own folder, and that folder is removed as soon as the use ends (in a `finally`).
 *
 * A process that dies mid-use leaves its folder behind. Each folder is named after the pid of the process using
 * it, and whoever opens the scratch space removes the folders of processes that no longer run: a server, the admin
 * CLI and a second server on the same DATA_DIR never remove each other's files in use.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

export type PlaintextScratch = {
  readonly root: string;
  /** Runs `fn` in a new private folder, removed with everything in it when `fn` settles. */
  withFolder<T>(fn: (dir: string) => Promise<T>): Promise<T>;
};

export const plaintextScratchRoot = (dataDir: string) => path.join(dataDir, 'tmp', 'plaintext');

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the folders left by processes that died; answers how many. */
export async function removeOrphanScratchFolders(root: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(/^(\d+)\./.exec(name)?.[1]);
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && processIsAlive(pid))) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

export async function openPlaintextScratch(dataDir: string): Promise<PlaintextScratch & { removedOrphans: number }> {
  const root = plaintextScratchRoot(dataDir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const removedOrphans = await removeOrphanScratchFolders(root);
  return {
    root,
    removedOrphans,
    async withFolder(fn) {
      // Named after this process, so another process's clean-up leaves it alone while this one runs.
      const dir = path.join(root, `${process.pid}.${randomUUID()}`);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      try {
        return await fn(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
