/**
 * Small state files in DATA_DIR (the key ring, the encryption state) written so that a crash leaves either the
 * old file or the new one, never half of one, and two processes creating one at once agree on a single file.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A new file beside `file`, written and flushed; its name ends with `.tmp`. */
function writeTemporary(file: string, text: string): string {
  const tmp = `${file}.${randomUUID()}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

function syncFolder(folder: string) {
  const dir = openSync(folder, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** Replaces `file` atomically and durably (mode 0600). */
export function replaceFileSync(file: string, text: string) {
  const tmp = writeTemporary(file, text);
  renameSync(tmp, file);
  syncFolder(path.dirname(file));
}

/** Creates `file` unless it exists (answers whether this call created it): whoever comes second keeps the first one's. */
export function createFileOnceSync(file: string, text: string): boolean {
  const tmp = writeTemporary(file, text);
  try {
    // link() fails if the name exists, unlike rename().
    linkSync(tmp, file);
    syncFolder(path.dirname(file));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Removes the temporary files of `file` that a process left when it died between writing and renaming. */
export function removeInterruptedWritesSync(file: string) {
  let names: string[];
  try {
    names = readdirSync(path.dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`${path.basename(file)}.`) || !name.endsWith('.tmp')) continue;
    const tmp = path.join(path.dirname(file), name);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(tmp).mtimeMs;
    } catch {
      continue;
    }
    // Written and renamed within one synchronous call: one older than a minute belongs to no running process.
    if (Date.now() - mtimeMs > 60_000) rmSync(tmp, { force: true });
  }
}
