/**
 * Private folders for the decrypted copies that tools need as files (ffmpeg, pdftoppm, tesseract, a speech
 * engine), and for what those tools write (converted audio, page images). They live in DATA_DIR/tmp/plaintext:
 * the folder is 0700 and every file in it 0600, each use gets its own folder, and that folder is removed as soon
 * as the use ends (in a `finally`). Nothing that holds patient audio or pages is written outside DATA_DIR: not in
 * the system's temporary folder, which outlives crashes and is shared with every other program.
 *
 * A process that dies mid-use leaves its folder behind. Each folder is named `<pid>.<start time>-<instance>.<uuid>`
 * after the process using it (storage/process-identity.ts), and whoever opens the scratch space removes the folders
 * whose process no longer runs: a server, the admin CLI and a second server on the same DATA_DIR never remove each
 * other's files in use, and a restarted server that got the crashed one's pid (pid 1 in a container) still removes
 * its leftovers, because their instance id is not its own.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { INSTANCE_ID, OWN_START_TIME, ownerMayBeRunning, processIsAlive } from './process-identity.js';

export type PlaintextScratch = {
  readonly root: string;
  /** Runs `fn` in a new private folder, removed with everything in it when `fn` settles. */
  withFolder<T>(fn: (dir: string) => Promise<T>): Promise<T>;
};

export const plaintextScratchRoot = (dataDir: string) => path.join(dataDir, 'tmp', 'plaintext');

/** The name of a new folder of this process. */
export const scratchFolderName = () => `${process.pid}.${OWN_START_TIME}-${INSTANCE_ID}.${randomUUID()}`;

/** Whether the folder `name` may belong to a running process (then it is left alone). */
function inUse(name: string): boolean {
  const current = /^(\d+)\.(\d+)-([0-9a-f]+)\./.exec(name);
  if (current) return ownerMayBeRunning({ pid: Number(current[1]), startTime: current[2], instance: current[3] });
  // `<pid>.<uuid>`, from a version before instance ids: never this process's own.
  const older = /^(\d+)\./.exec(name);
  const pid = Number(older?.[1]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processIsAlive(pid);
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
    if (inUse(name)) continue;
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
      const dir = path.join(root, scratchFolderName());
      await mkdir(dir, { recursive: true, mode: 0o700 });
      try {
        return await fn(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
