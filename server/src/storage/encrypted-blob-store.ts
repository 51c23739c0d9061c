/**
 * The BlobStore the app uses: every blob is encrypted (storage/blob-encryption.ts) before any driver stores it,
 * so the filesystem driver and a future S3 driver both keep only ciphertext. Reads decrypt and verify the whole
 * blob before giving out its first byte: altered audio fails loudly instead of playing. A blob without encryption
 * is content only while the data folder's one-off migration from before encryption is pending
 * (storage/plaintext-migration.ts), and then it must match what the database recorded of it (size, SHA-256); any
 * other one is refused. Tools that need a file get a decrypted copy in a private scratch folder that is removed
 * after the use (storage/plaintext-scratch.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import {
  BlobIntegrityError,
  contentSize,
  decryptBlob,
  encryptBlob,
  HEADER_BYTES,
  PlaintextBlobError,
  rewrapBlob,
  storedKeyId,
  UnknownMasterKeyError,
} from './blob-encryption.js';
import { BlobNotFoundError, createFileBlobDriver, type BlobDriver, type BlobStore } from './blob-store.js';
import { KEY_RING_FILE, KeyRingError, openKeyRing, type KeyRing } from './master-keys.js';
import { openPlaintextMigration, type PlaintextMigration } from './plaintext-migration.js';
import { openPlaintextScratch, type PlaintextScratch } from './plaintext-scratch.js';
import { createS3BlobDriver } from './s3-blob-driver.js';

/**
 * Checks a plaintext blob against what the database recorded when it was stored; throws a BlobIntegrityError
 * when it does not match (storage/blob-records.ts).
 */
export type PlaintextBlobCheck = (key: string, content: Buffer) => Promise<void>;

export type EncryptedBlobStore = BlobStore & {
  /** The bytes as stored (still encrypted): backups copy these. */
  readonly driver: BlobDriver;
  readonly keys: KeyRing;
  /** Whether blobs from before encryption may still be plaintext in this data folder. */
  readonly plaintextMigration: PlaintextMigration;
  /** The content of a blob, verified. */
  readBuffer(key: string): Promise<Buffer>;
  /**
   * Makes the stored blob use the current master key: a blob under an older key gets its data key rewrapped
   * (only the header changes, in place), a legacy plaintext blob is encrypted while the migration is pending.
   * Answers what was done; 'missing' for a blob deleted meanwhile, which stays deleted.
   */
  rewrap(key: string): Promise<'current' | 'rewrapped' | 'encrypted' | 'missing'>;
};

/** A header rewritten in place may be read half-written by a reader at that very moment: it reads again once. */
const REREAD_DELAY_MS = 20;

export function createEncryptedBlobStore(
  driver: BlobDriver,
  keys: KeyRing,
  scratch: PlaintextScratch,
  migration: PlaintextMigration,
  checkPlaintext?: PlaintextBlobCheck,
): EncryptedBlobStore {
  const findKey = (id: string) => keys.find(id);

  async function open(key: string, stored: Buffer): Promise<Buffer> {
    if (storedKeyId(stored) !== 'legacy') return decryptBlob(key, stored, findKey);
    if (!migration.pending()) throw new PlaintextBlobError(key);
    await checkPlaintext?.(key, stored);
    return stored;
  }

  async function readBuffer(key: string): Promise<Buffer> {
    const stored = await driver.get(key);
    if (!stored) throw new BlobNotFoundError(key);
    try {
      return await open(key, stored);
    } catch (err) {
      if (!(err instanceof BlobIntegrityError || err instanceof UnknownMasterKeyError)) throw err;
      // A rotation may have been rewriting this header (or encrypting this legacy blob and closing the migration)
      // at the moment it was read: if the header changed since, the blob is read again; otherwise it is damaged.
      await new Promise((resolve) => setTimeout(resolve, REREAD_DELAY_MS));
      const again = await driver.get(key);
      if (!again) throw new BlobNotFoundError(key);
      if (again.subarray(0, HEADER_BYTES).equals(stored.subarray(0, HEADER_BYTES))) throw err;
      return open(key, again);
    }
  }

  async function writeLocalCopies(keyList: string[], dir: string): Promise<string[]> {
    const files: string[] = [];
    for (const [i, key] of keyList.entries()) {
      // The copy's path ends with the blob's key (its extension tells tools the format); a numbered folder keeps
      // a key given twice apart.
      const folder = path.join(dir, String(i));
      const file = path.resolve(folder, key);
      if (!file.startsWith(folder + path.sep)) throw new Error('blob key outside the store');
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(file, await readBuffer(key), { mode: 0o600, flag: 'wx' });
      files.push(file);
    }
    return files;
  }

  /** The whole stored blob replaced by `transform`'s answer, never re-creating one deleted meanwhile where the driver can. */
  async function replaceExisting(key: string, transform: (stored: Buffer) => Promise<Buffer | undefined>): Promise<'replaced' | 'unchanged' | 'missing'> {
    if (driver.replaceExisting) return driver.replaceExisting(key, transform);
    // Generic fallback for drivers that cannot do better: a deletion between this read and write is undone.
    const stored = await driver.get(key);
    if (!stored) return 'missing';
    const next = await transform(stored);
    if (!next) return 'unchanged';
    await driver.put(key, next);
    return 'replaced';
  }

  async function encryptLegacy(key: string): Promise<'current' | 'rewrapped' | 'encrypted' | 'missing'> {
    const current = keys.current();
    const done = { as: 'encrypted' as 'rewrapped' | 'encrypted' };
    const result = await replaceExisting(key, async (stored) => {
      const keyId = storedKeyId(stored);
      if (keyId === 'legacy') {
        // Refused unless this folder's migration is pending, and checked against the database first: a file swapped
        // in is never turned into an authenticated blob.
        if (!migration.pending()) throw new PlaintextBlobError(key);
        await checkPlaintext?.(key, stored);
        done.as = 'encrypted';
        return encryptBlob(key, stored, current);
      }
      // Encrypted by another rotation meanwhile.
      if (keyId === current.id) return undefined;
      done.as = 'rewrapped';
      return rewrapBlob(stored, findKey, current);
    });
    return result === 'replaced' ? done.as : result === 'unchanged' ? 'current' : 'missing';
  }

  const store: EncryptedBlobStore = {
    driver,
    keys,
    plaintextMigration: migration,
    readBuffer,
    async put(key, data) {
      await driver.put(key, encryptBlob(key, data, keys.current()));
    },
    read(key) {
      // Verified in full before the first chunk: a stream that errors halfway would already have sent altered bytes.
      return Readable.from(
        (async function* () {
          yield await readBuffer(key);
        })(),
      );
    },
    withLocalFile(key, fn) {
      return store.withLocalFiles([key], ([file], work) => fn(file!, work));
    },
    withLocalFiles(keyList, fn) {
      return scratch.withFolder(async (dir) => {
        const files = await writeLocalCopies(keyList, path.join(dir, 'blobs'));
        const work = path.join(dir, 'work');
        await mkdir(work, { mode: 0o700 });
        return fn(files, work);
      });
    },
    withScratchFolder: (fn) => scratch.withFolder(fn),
    async size(key) {
      const [head, storedSize] = await Promise.all([driver.readHead(key, HEADER_BYTES), driver.size(key)]);
      if (!head || storedSize === undefined) return undefined;
      const encrypted = storedKeyId(head) !== 'legacy';
      if (!encrypted && !migration.pending()) throw new PlaintextBlobError(key);
      return contentSize(storedSize, encrypted);
    },
    delete: (key) => driver.delete(key),
    deletePrefix: (prefix) => driver.deletePrefix(prefix),
    list: (prefix) => driver.list(prefix),
    ping: (signal) => driver.ping(signal),
    async rewrap(key) {
      const head = await driver.readHead(key, HEADER_BYTES);
      if (!head) return 'missing';
      if (storedKeyId(head) === 'legacy') return encryptLegacy(key);
      const current = keys.current();
      const seen = { legacy: false };
      // Only the header changes: patched in place where the driver can, so the blob is never written anew (and a
      // blob deleted meanwhile is not brought back).
      const patch = (stored: Buffer) => {
        const keyId = storedKeyId(stored);
        if (keyId === 'legacy') {
          seen.legacy = true;
          return undefined;
        }
        return keyId === current.id ? undefined : rewrapBlob(stored, findKey, current).subarray(0, HEADER_BYTES);
      };
      const result = driver.patchHead
        ? await driver.patchHead(key, HEADER_BYTES, patch)
        : await replaceExisting(key, async (stored) => {
            const header = patch(stored.subarray(0, HEADER_BYTES));
            return header && Buffer.concat([header, stored.subarray(HEADER_BYTES)]);
          });
      // Replaced by a plaintext file since the first look: the legacy rules decide.
      if (seen.legacy) return encryptLegacy(key);
      return result === 'missing' ? 'missing' : result === 'unchanged' ? 'current' : 'rewrapped';
    },
  };
  return store;
}

/** What the store holds, for the checks at start; stops at the first encrypted blob. */
async function surveyStore(driver: BlobDriver): Promise<{ legacy: boolean; encrypted: boolean }> {
  let legacy = false;
  for await (const key of driver.list()) {
    const head = await driver.readHead(key, HEADER_BYTES);
    if (!head) continue;
    if (storedKeyId(head) !== 'legacy') return { legacy, encrypted: true };
    legacy = true;
  }
  return { legacy, encrypted: false };
}

/**
 * The app's blob store from the settings: DATA_DIR/files, the master keys, the plaintext migration's state, and a
 * cleaned scratch space. `checkPlaintext` (given where the database is at hand) checks blobs from before
 * encryption against their rows.
 */
export async function openBlobStore(
  config: Pick<Config, 'dataDir' | 'encryptionKey' | 'previousEncryptionKeys'> & Partial<Pick<Config, 's3'>>,
  opts: { checkPlaintext?: PlaintextBlobCheck } = {},
): Promise<EncryptedBlobStore> {
  const files = config.s3 ? undefined : createFileBlobDriver(path.join(config.dataDir, 'files'));
  const driver: BlobDriver = files ?? createS3BlobDriver(config.s3!);
  let survey: Promise<{ legacy: boolean; encrypted: boolean }> | undefined;
  const surveyOnce = () => (survey ??= surveyStore(driver));
  if (!config.encryptionKey && !existsSync(path.join(config.dataDir, KEY_RING_FILE))) {
    // A new key now would leave every stored blob unreadable, and the blobs written next unreadable with the
    // old key file once it is found: refuse instead. (Only blobs from before encryption may exist without it.)
    if ((await surveyOnce()).encrypted) {
      throw new KeyRingError(
        `${path.join(config.dataDir, KEY_RING_FILE)} is missing but ${config.s3 ? `the bucket ${config.s3.bucket}` : path.join(config.dataDir, 'files')} holds encrypted files: ` +
          'put the key ring file back from your key backup (or give the key in ENCRYPTION_KEY), then start again.',
      );
    }
  }
  // Decided before any key is made or blob written, so the first start of a folder sees it as it was.
  const migration = await openPlaintextMigration(config.dataDir, surveyOnce);
  const keys = openKeyRing({ dataDir: config.dataDir, encryptionKey: config.encryptionKey, previousEncryptionKeys: config.previousEncryptionKeys });
  await files?.removeOrphanTemporaryFiles();
  const scratch = await openPlaintextScratch(config.dataDir);
  return createEncryptedBlobStore(driver, keys, scratch, migration, opts.checkPlaintext);
}
