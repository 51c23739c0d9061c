/**
 * The secret that keys the audit log's hash chain (audit/hash-chain.ts). It is kept outside the database, so
 * someone who can rewrite the audit_events table (its owner, a superuser, whoever holds a copy of the database)
 * cannot recompute the hashes after removing or changing an event.
 *
 * Where it comes from:
 * - `AUDIT_KEY` (at least 32 bytes as hex or base64): the current key, for several servers on one database, which
 *   must all seal with the same key;
 * - otherwise the file DATA_DIR/audit-key (mode 0600), generated once at first start: one key per line, base64,
 *   the first line the current one. Later lines are keys of events this server did not write (imported by
 *   `restore --audit-key-file`): they are read, never written with. With AUDIT_KEY set, every line of the file
 *   is read too and no file is created.
 *
 * A key's id is derived from it (HMAC-SHA-256, first 8 bytes, hex), so each event names the key that sealed it
 * without revealing anything of the key. The file is re-read whenever it changed, so a running server sees a key
 * that a restore imported.
 */
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from '../config.js';
import { createFileOnceSync, keyFileSignature, readKeyFileText, removeInterruptedWritesSync, replaceFileSync } from '../storage/key-file.js';
import { MIN_AUDIT_KEY_BYTES, parseAuditKey } from './audit-key-format.js';

export { MIN_AUDIT_KEY_BYTES, parseAuditKey } from './audit-key-format.js';

export const AUDIT_KEY_FILE = 'audit-key';
const NEW_KEY_BYTES = 32;

/** A ConfigError: the server's start (and the CLI) print its message alone, like any other settings problem. */
export class AuditKeyError extends ConfigError {}

export type AuditKey = {
  /** Names the key in each event it sealed. */
  id: string;
  /** The HMAC key of the chain, derived from the secret (never the secret itself). */
  chainKey: Buffer;
  /** The HMAC key that seals a backup file whole (admin/backup-format.ts), apart from the chain's. */
  backupKey: Buffer;
  /** The secret as given, to copy it into another server's key file. */
  secret: Buffer;
};

export type AuditKeys = {
  /** 'setting' when AUDIT_KEY gives the current key, 'file' when DATA_DIR/audit-key does. */
  readonly source: 'setting' | 'file';
  readonly file: string;
  /** The key new events are sealed with. */
  current(): AuditKey;
  /** The key with this id (re-reading the file once if it is not known). */
  find(id: string): AuditKey | undefined;
  /** Ids of every key this process can verify with, the current one first. */
  ids(): string[];
  /** Adds keys (of another server's audit log) to the file, for verifying only; answers the ids added. */
  importKeys(keys: AuditKey[]): string[];
};

export function auditKeyOf(secret: Buffer): AuditKey {
  return {
    id: createHmac('sha256', secret).update('consultation-notes audit key id').digest().subarray(0, 8).toString('hex'),
    chainKey: createHmac('sha256', secret).update('consultation-notes audit chain').digest(),
    backupKey: createHmac('sha256', secret).update('consultation-notes backup seal').digest(),
    secret,
  };
}

function readKeyFile(file: string): AuditKey[] | undefined {
  const text = readKeyFileText(file);
  if (text === undefined) return undefined;
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const keys = lines.map((line) => {
    const secret = parseAuditKey(line);
    if (!secret) throw new AuditKeyError(`${file} holds a line that is not an audit key (at least ${MIN_AUDIT_KEY_BYTES} bytes as base64 or hex).`);
    return auditKeyOf(secret);
  });
  if (!keys.length) throw new AuditKeyError(`${file} holds no audit key.`);
  return keys;
}

const keyLines = (keys: AuditKey[]) => keys.map((k) => k.secret.toString('base64')).join('\n') + '\n';

/** Creates the file with one new key unless it exists (two processes starting at once agree on one key). */
function createKeyFile(file: string) {
  createFileOnceSync(file, keyLines([auditKeyOf(randomBytes(NEW_KEY_BYTES))]));
}

export function openAuditKeys(opts: { dataDir: string; auditKey?: Buffer }): AuditKeys {
  const file = path.join(opts.dataDir, AUDIT_KEY_FILE);
  const setting = opts.auditKey ? auditKeyOf(opts.auditKey) : undefined;
  const source = setting ? 'setting' : 'file';
  // Key material a process that died between writing and renaming left in a temporary file, as for the master keys.
  removeInterruptedWritesSync(file);
  if (!setting && !readKeyFile(file)) createKeyFile(file);

  let fromFile: AuditKey[] = [];
  let seen = '';
  /** Re-reads the file when it is not the one last read. */
  const refresh = () => {
    const signature = keyFileSignature(file);
    if (signature === seen) return;
    const keys = readKeyFile(file);
    if (!setting && !keys)
      throw new AuditKeyError(`The audit key file ${file} is gone: restore it from your key backup (without it the audit log cannot be verified).`);
    fromFile = keys ?? [];
    seen = signature;
  };
  refresh();
  const all = () => (setting ? [setting, ...fromFile.filter((k) => k.id !== setting.id)] : fromFile);

  return {
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
    importKeys(keys) {
      refresh();
      const added = keys.filter((k, i) => !all().some((h) => h.id === k.id) && keys.findIndex((o) => o.id === k.id) === i);
      if (!added.length) return [];
      // Appended after the current key, so the current key stays first: they are read, never written with.
      replaceFileSync(file, keyLines([...fromFile, ...added]));
      refresh();
      return added.map((k) => k.id);
    },
  };
}

/** Keys in an audit key file of another data folder (one key a line), or a file holding one key. */
export function readAuditKeysFromFile(file: string): AuditKey[] {
  const keys = readKeyFile(file);
  if (!keys) throw new AuditKeyError(`${file} does not exist.`);
  return keys;
}
