/**
 * `npm run admin -- rotate-key`: every blob ends up under one new master key, and the old keys are retired.
 *
 * Steps, each safe to interrupt: (1) a new key becomes current in the key ring file, the old ones stay for
 * reading; (2) every blob's data key is rewrapped under it (a header change, written in place; legacy plaintext
 * blobs are encrypted while the folder's migration from before encryption is pending, after a check against the
 * database); (3) a last pass checks every blob is under the current key, catching blobs another process wrote
 * with the old key meanwhile; (4) the old keys are removed from the file, and a pending plaintext migration is
 * closed: from then on no process on this folder accepts a plaintext blob. A rotation interrupted anywhere is
 * finished by running the command again: while the file still holds old keys, no further key is added.
 *
 * The retention sweep may delete blobs meanwhile: a blob gone mid-rotation is simply gone (never re-created, and
 * not an error).
 *
 * With ENCRYPTION_KEY set, the new key comes from the settings instead: put the new key in ENCRYPTION_KEY and
 * the old one in ENCRYPTION_KEY_PREVIOUS, restart, run rotate-key (steps 2–4), then drop ENCRYPTION_KEY_PREVIOUS.
 */
import type { EncryptedBlobStore } from './encrypted-blob-store.js';
import { describeErrorSafely } from '../errors/safe-errors.js';

export type RotationReport = {
  currentKeyId: string;
  /** A new key was made (false when finishing an interrupted rotation, or with ENCRYPTION_KEY). */
  newKey: boolean;
  rewrapped: number;
  encrypted: number;
  alreadyCurrent: number;
  /** Key ids removed from the key ring file. */
  retired: string[];
  /** With ENCRYPTION_KEY: previous keys from the settings that no blob needs any more. */
  unusedPreviousKeys: string[];
  /** Every blob from before encryption is now encrypted, and plaintext is refused from now on. */
  plaintextMigrationFinished: boolean;
  /** Secrets kept in the database under the master key (the AI engines' API keys) resealed. */
  resealedSecrets: number;
};

const MAX_PASSES = 5;

export class RotationError extends Error {}

/**
 * `resealSecrets` rewraps what else is sealed with the master key (kept in the database, not the blob store);
 * it runs after the blobs and before any key is retired, so a failure there leaves the old keys in place.
 */
export async function rotateMasterKey(store: EncryptedBlobStore, resealSecrets: () => Promise<number> = async () => 0): Promise<RotationReport> {
  const ring = store.keys;
  let newKey = false;
  if (ring.source === 'file' && ring.fileIds().length === 1) {
    ring.addCurrentKey();
    newKey = true;
  }
  const counts = { rewrapped: 0, encrypted: 0, alreadyCurrent: 0 };
  // Pass after pass until one finds nothing to change: a server writing with the old key during the first pass
  // (it had read the key ring just before the new key was added) is caught by the next.
  for (let pass = 1; ; pass++) {
    let changed = 0;
    for await (const key of store.list()) {
      let result: Awaited<ReturnType<EncryptedBlobStore['rewrap']>>;
      try {
        result = await store.rewrap(key);
      } catch (err) {
        const why = describeErrorSafely(err);
        throw new RotationError(`${key}: ${why} Nothing was retired; the old keys are still in use. Fix or remove this blob, then run rotate-key again.`);
      }
      if (result === 'rewrapped' || result === 'encrypted') {
        counts[result]++;
        changed++;
      } else if (result === 'current' && pass === 1) counts.alreadyCurrent++;
    }
    if (changed === 0) break;
    if (pass === MAX_PASSES) throw new RotationError('Blobs kept arriving under an old key; the old keys were kept. Run rotate-key again.');
  }
  let resealedSecrets: number;
  try {
    resealedSecrets = await resealSecrets();
  } catch (err) {
    throw new RotationError(`Sealed settings: ${describeErrorSafely(err)} Nothing was retired; the old keys are still in use.`);
  }
  const currentKeyId = ring.current().id;
  const retired = ring.retireOldKeys();
  const unusedPreviousKeys = ring.source === 'setting' ? ring.ids().filter((id) => id !== currentKeyId) : [];
  // The last pass found every blob encrypted under the current key: nothing legitimate is plaintext any more.
  const plaintextMigrationFinished = store.plaintextMigration.finish();
  return { currentKeyId, newKey, ...counts, retired, unusedPreviousKeys, plaintextMigrationFinished, resealedSecrets };
}
