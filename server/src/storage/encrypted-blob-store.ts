/**
 * The BlobStore the app uses: every blob is encrypted (storage/blob-encryption.ts) before any driver stores it,
 * so the filesystem driver and a future S3 driver both keep only ciphertext. Reads decrypt and verify the whole
 * blob before giving out its first byte: altered audio fails loudly instead of playing. Tools that need a file
 * get a decrypted copy in a private scratch folder that is removed after the use (storage/plaintext-scratch.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { contentSize, decryptBlob, encryptBlob, HEADER_BYTES, rewrapBlob, storedKeyId } from './blob-encryption.js';
import { BlobNotFoundError, createFileBlobDriver, type BlobDriver, type BlobStore } from './blob-store.js';
import { KEY_RING_FILE, KeyRingError, openKeyRing, type KeyRing } from './master-keys.js';
import { openPlaintextScratch, type PlaintextScratch } from './plaintext-scratch.js';

export type EncryptedBlobStore = BlobStore & {
  /** The bytes as stored (still encrypted): backups copy these. */
  readonly driver: BlobDriver;
  readonly keys: KeyRing;
  /** The content of a blob, verified. */
  readBuffer(key: string): Promise<Buffer>;
  /**
   * Makes the stored blob use the current master key: a blob under an older key gets its data key rewrapped
   * (only the header changes), a legacy plaintext blob is encrypted. Answers what was done.
   */
  rewrap(key: string): Promise<'current' | 'rewrapped' | 'encrypted' | 'missing'>;
};

export function createEncryptedBlobStore(driver: BlobDriver, keys: KeyRing, scratch: PlaintextScratch): EncryptedBlobStore {
  async function readBuffer(key: string): Promise<Buffer> {
    const stored = await driver.get(key);
    if (!stored) throw new BlobNotFoundError(key);
    return decryptBlob(key, stored, (id) => keys.find(id));
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

  const store: EncryptedBlobStore = {
    driver,
    keys,
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
      return head && storedSize !== undefined ? contentSize(storedSize, storedKeyId(head) !== 'legacy') : undefined;
    },
    delete: (key) => driver.delete(key),
    deletePrefix: (prefix) => driver.deletePrefix(prefix),
    list: (prefix) => driver.list(prefix),
    async rewrap(key) {
      const stored = await driver.get(key);
      if (!stored) return 'missing';
      const current = keys.current();
      const keyId = storedKeyId(stored);
      if (keyId === current.id) return 'current';
      if (keyId === 'legacy') {
        await driver.put(key, encryptBlob(key, stored, current));
        return 'encrypted';
      }
      await driver.put(key, rewrapBlob(stored, (id) => keys.find(id), current));
      return 'rewrapped';
    },
  };
  return store;
}

/** The app's blob store from the settings: DATA_DIR/files, the master keys, and a cleaned scratch space. */
export async function openBlobStore(config: Pick<Config, 'dataDir' | 'encryptionKey' | 'previousEncryptionKeys'>): Promise<EncryptedBlobStore> {
  const driver = createFileBlobDriver(path.join(config.dataDir, 'files'));
  if (!config.encryptionKey && !existsSync(path.join(config.dataDir, KEY_RING_FILE))) {
    // A new key now would leave every stored blob unreadable, and the blobs written next unreadable with the
    // old key file once it is found: refuse instead. (Only blobs from before encryption may exist without it.)
    for await (const key of driver.list()) {
      const head = await driver.readHead(key, HEADER_BYTES);
      if (head && storedKeyId(head) !== 'legacy') {
        throw new KeyRingError(
          `${path.join(config.dataDir, KEY_RING_FILE)} is missing but ${path.join(config.dataDir, 'files')} holds encrypted files: ` +
            'put the key ring file back from your key backup (or give the key in ENCRYPTION_KEY), then start again.',
        );
      }
    }
  }
  const keys = openKeyRing({ dataDir: config.dataDir, encryptionKey: config.encryptionKey, previousEncryptionKeys: config.previousEncryptionKeys });
  await driver.removeOrphanTemporaryFiles();
  const scratch = await openPlaintextScratch(config.dataDir);
  return createEncryptedBlobStore(driver, keys, scratch);
}
