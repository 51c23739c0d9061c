/**
 * The master keys that wrap every blob's own data key (storage/blob-encryption.ts).
 *
 * Where they come from, in this order:
 * - `ENCRYPTION_KEY` (32 bytes, base64 or hex): the current key; `ENCRYPTION_KEY_PREVIOUS` (comma-separated) holds
 *   older ones that are still read but never written with. For several servers sharing one bucket or database.
 * - otherwise the key ring file DATA_DIR/encryption-keys.json (mode 0600), generated once at first start. It holds
 *   the current key and, while a rotation runs, the previous ones; `npm run admin -- rotate-key` adds a key,
 *   rewraps every blob and then removes the old keys from the file.
 * With ENCRYPTION_KEY set, keys found in the key ring file are read too (moving from the file to the setting),
 * and no file is ever created.
 *
 * A key's id is derived from the key itself (HMAC-SHA-256, first 8 bytes, hex), so the same key has the same id
 * wherever it is given, and an id reveals nothing of the key. Each blob's header names the id that wrapped it.
 *
 * Other processes may rotate the file while this one runs (the admin CLI, a second server on the same
 * DATA_DIR): the ring re-reads it whenever the file changed before choosing the key to write with, and before
 * giving up on an id it does not know.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../config.js';
import { createFileOnceSync, jsonKeyFileText, keyFileSignature, readJsonKeyFile, removeInterruptedWritesSync, replaceFileSync } from './key-file.js';
import { MASTER_KEY_BYTES, parseMasterKey } from './master-key-format.js';

export { MASTER_KEY_BYTES, parseMasterKey } from './master-key-format.js';

export const KEY_RING_FILE = 'encryption-keys.json';

export type MasterKey = { id: string; key: Buffer };

/** A ConfigError: the server's start prints its message alone, like any other settings problem. */
export class KeyRingError extends ConfigError {}

export function masterKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('consultation-notes master key id').digest().subarray(0, 8).toString('hex');
}

const ringFileSchema = z.object({
  format: z.literal(1),
  current: z.string(),
  keys: z.array(z.object({ id: z.string(), key: z.string(), created_at: z.string() })).min(1),
});
type RingFile = z.infer<typeof ringFileSchema>;

export type KeyRing = {
  /** 'setting' when ENCRYPTION_KEY gives the current key, 'file' when the key ring file does. */
  readonly source: 'setting' | 'file';
  readonly file: string;
  current(): MasterKey;
  /** The key with this id, re-reading the file once if it is not known yet. */
  find(id: string): MasterKey | undefined;
  /** Ids of every key this process can read with, the current one first. */
  ids(): string[];
  /** Ids of the keys in the key ring file (none without one). */
  fileIds(): string[];
  /** File mode: makes a new key current, keeping the others for reading; answers it. */
  addCurrentKey(): MasterKey;
  /** Removes every key but the current one from the file (with ENCRYPTION_KEY set: removes the file). */
  retireOldKeys(): string[];
  /** Adds keys (from another DATA_DIR's key ring file) for reading, in file mode. */
  importKeys(keys: MasterKey[]): string[];
};

function readRingFile(file: string): { ring: RingFile; keys: MasterKey[] } | undefined {
  const ring = readJsonKeyFile(file, ringFileSchema, () => new KeyRingError(`${file} is not a valid key ring file.`));
  if (!ring) return undefined;
  const keys = ring.keys.map((k) => {
    const key = parseMasterKey(k.key);
    if (!key || masterKeyId(key) !== k.id) throw new KeyRingError(`${file} holds a damaged key (${k.id}).`);
    return { id: k.id, key };
  });
  if (!keys.some((k) => k.id === ring.current)) throw new KeyRingError(`${file} names a current key it does not hold.`);
  return { ring, keys };
}

const newRingEntry = (key: Buffer) => ({ id: masterKeyId(key), key: key.toString('base64'), created_at: new Date().toISOString() });

const ringText = (ring: RingFile) => jsonKeyFileText(ring);
/** Atomic and durable: a crash leaves either the old file or the new one, never half of one. */
const writeRingFile = (file: string, ring: RingFile) => replaceFileSync(file, ringText(ring));

/** Creates the key ring file with one new key unless it exists (two processes starting at once agree on one). */
function createRingFile(file: string) {
  const entry = newRingEntry(randomBytes(MASTER_KEY_BYTES));
  createFileOnceSync(file, ringText({ format: 1, current: entry.id, keys: [entry] }));
}

export function openKeyRing(opts: { dataDir: string; encryptionKey?: Buffer; previousEncryptionKeys?: Buffer[] }): KeyRing {
  const file = path.join(opts.dataDir, KEY_RING_FILE);
  const settingKeys: MasterKey[] = opts.encryptionKey
    ? [opts.encryptionKey, ...(opts.previousEncryptionKeys ?? [])].map((key) => ({ id: masterKeyId(key), key }))
    : [];
  const source = opts.encryptionKey ? 'setting' : 'file';
  // Key material a process that died between writing and renaming left in a temporary file.
  removeInterruptedWritesSync(file);
  if (source === 'file') {
    if (!readRingFile(file)) createRingFile(file);
  }

  let loaded: { ring: RingFile; keys: MasterKey[] } | undefined;
  let seen = '';
  /** Re-reads the file when it is not the one last read (a rename gives it a new inode). */
  const refresh = () => {
    const signature = keyFileSignature(file);
    if (signature === seen) return;
    loaded = readRingFile(file);
    seen = signature;
    if (source === 'file' && !loaded) throw new KeyRingError(`The key ring file ${file} is gone: restore it from your key backup.`);
  };
  refresh();

  const all = (): MasterKey[] => {
    const fromFile = loaded?.keys ?? [];
    if (source === 'setting') return [...settingKeys, ...fromFile.filter((k) => !settingKeys.some((s) => s.id === k.id))];
    const current = fromFile.find((k) => k.id === loaded!.ring.current)!;
    return [current, ...fromFile.filter((k) => k !== current)];
  };

  const ring: KeyRing = {
    source,
    file,
    current() {
      refresh();
      return all()[0]!;
    },
    find(id) {
      const known = all().find((k) => k.id === id);
      if (known) return known;
      refresh();
      return all().find((k) => k.id === id);
    },
    ids() {
      refresh();
      return all().map((k) => k.id);
    },
    fileIds() {
      refresh();
      return (loaded?.keys ?? []).map((k) => k.id);
    },
    addCurrentKey() {
      if (source !== 'file') throw new KeyRingError('ENCRYPTION_KEY is set: the new key comes from that setting.');
      refresh();
      const entry = newRingEntry(randomBytes(MASTER_KEY_BYTES));
      writeRingFile(file, { format: 1, current: entry.id, keys: [entry, ...loaded!.ring.keys] });
      refresh();
      return ring.current();
    },
    retireOldKeys() {
      refresh();
      if (source === 'setting') {
        const retired = (loaded?.keys ?? []).map((k) => k.id).filter((id) => !settingKeys.some((s) => s.id === id));
        if (loaded) rmSync(file, { force: true });
        refresh();
        return retired;
      }
      const keep = loaded!.ring.keys.filter((k) => k.id === loaded!.ring.current);
      const retired = loaded!.ring.keys.filter((k) => k.id !== loaded!.ring.current).map((k) => k.id);
      if (retired.length) writeRingFile(file, { ...loaded!.ring, keys: keep });
      refresh();
      return retired;
    },
    importKeys(keys) {
      if (source !== 'file') throw new KeyRingError('ENCRYPTION_KEY is set: give older keys in ENCRYPTION_KEY_PREVIOUS.');
      refresh();
      const added = keys.filter((k) => !loaded!.keys.some((h) => h.id === k.id));
      if (added.length) {
        writeRingFile(file, { ...loaded!.ring, keys: [...loaded!.ring.keys, ...added.map((k) => newRingEntry(k.key))] });
        refresh();
      }
      return added.map((k) => k.id);
    },
  };
  return ring;
}

/** Keys in a key ring file of another data folder (or a file holding one key as base64 or hex). */
export function readKeysFromFile(file: string): MasterKey[] {
  const text = readFileSync(file, 'utf8');
  const single = parseMasterKey(text);
  if (single) return [{ id: masterKeyId(single), key: single }];
  const parsed = readRingFile(file);
  if (!parsed) throw new KeyRingError(`${file} does not exist.`);
  return parsed.keys;
}
