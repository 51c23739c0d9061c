/**
 * The small key and state files of DATA_DIR (the master key ring, the audit key, the encryption state): read, checked
 * and written the one way, here. They are written so that a crash leaves either the old file or the new one, never
 * half of one, and two processes creating one at once agree on a single file; they are read again when another
 * process (the admin CLI, a second server on the same folder) changed them.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

/** The file's text, or undefined when there is no such file (any other failure to read it is thrown). */
export function readKeyFileText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * A JSON state file checked against its schema, or undefined when there is none. Text that is not JSON, or JSON
 * of another shape, throws `invalid()`: the caller's own error, whose message names the file.
 */
export function readJsonKeyFile<S extends z.ZodType>(file: string, schema: S, invalid: () => Error): z.infer<S> | undefined {
  const text = readKeyFileText(file);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalid();
  return parsed.data;
}

/** A JSON state file's text as it is written: indented, one final newline. */
export const jsonKeyFileText = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

/**
 * What identifies the file's current version: a rename gives it a new inode, a rewrite in place a new size or
 * time. Equal signatures mean the file need not be read again; 'none' when there is no file.
 */
export function keyFileSignature(file: string): string {
  let st;
  try {
    st = statSync(file);
  } catch {
    return 'none';
  }
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

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

/** Replaces `file` atomically and durably (mode 0600): a reader sees the old text or the new one, never half. */
export function replaceFileSync(file: string, text: string) {
  const tmp = writeTemporary(file, text);
  try {
    renameSync(tmp, file);
  } catch (err) {
    // Key material must not stay behind under a temporary name.
    rmSync(tmp, { force: true });
    throw err;
  }
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
