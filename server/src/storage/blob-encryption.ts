/**
 * The encrypted blob format. Every blob is encrypted with AES-256-GCM under its own random data key; the data
 * key is wrapped (AES-256-GCM again) by a master key (storage/master-keys.ts). The stored bytes are a fixed
 * 101-byte header followed by the ciphertext, so a blob says by itself how to open it:
 *
 *   offset  size  field
 *        0     4  magic 0x89 'C' 'N' 'B' (the high first byte keeps it from looking like text)
 *        4     1  format version (1)
 *        5     8  id of the master key that wrapped the data key
 *       13    12  IV of the wrapping
 *       25    32  wrapped data key
 *       57    16  tag of the wrapping (authenticates magic, version and key id too)
 *       73    12  IV of the content
 *       85    16  tag of the content
 *      101     …  ciphertext (as long as the content)
 *
 * The content's additional authenticated data is the magic, the version and the blob's key (its name in the
 * store), so a blob copied over another one's name fails to open instead of showing the wrong patient's file.
 * Rotating the master key rewrites only the wrapping fields (bytes 5–72); the content's IV, tag and ciphertext
 * stay as they are.
 *
 * Blobs without the magic were written before encryption existed ("legacy" plaintext). They are accepted only
 * while the data folder's one-off migration is pending (storage/plaintext-migration.ts), and otherwise refused:
 * this module never treats bytes without the magic as content.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { MasterKey } from './master-keys.js';

const MAGIC = Buffer.from([0x89, 0x43, 0x4e, 0x42]);
const VERSION = 1;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
export const HEADER_BYTES = MAGIC.length + 1 + KEY_ID_BYTES + IV_BYTES + DATA_KEY_BYTES + TAG_BYTES + IV_BYTES + TAG_BYTES;

const at = {
  version: 4,
  keyId: 5,
  wrapIv: 13,
  wrappedKey: 25,
  wrapTag: 57,
  dataIv: 73,
  dataTag: 85,
} as const;

export class BlobIntegrityError extends Error {}
/** A blob without encryption where none may be: its bytes are not content. */
export class PlaintextBlobError extends BlobIntegrityError {
  constructor(readonly blobKey: string) {
    super(
      `The blob ${blobKey} is not encrypted, and this data folder accepts no unencrypted files (every file the server ` +
        'writes is encrypted): it was put there from outside the server. Its content is not used. Remove it, or put back the original from a backup.',
    );
  }
}
export class UnknownMasterKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`The blob's data key was wrapped by master key ${keyId}, which is not configured.`);
  }
}

/** 'legacy' for blobs stored before encryption (no magic); otherwise the id of the master key that wraps it. */
export function storedKeyId(stored: Buffer): string | 'legacy' {
  if (stored.length < MAGIC.length || !stored.subarray(0, MAGIC.length).equals(MAGIC)) return 'legacy';
  if (stored.length < HEADER_BYTES) throw new BlobIntegrityError('The blob is shorter than its header.');
  if (stored[at.version] !== VERSION) throw new BlobIntegrityError(`The blob has an unknown format version (${stored[at.version]}).`);
  return stored.subarray(at.keyId, at.keyId + KEY_ID_BYTES).toString('hex');
}

const wrapAad = (header: Buffer) => header.subarray(0, at.wrapIv);
const contentAad = (blobKey: string) => Buffer.concat([MAGIC, Buffer.from([VERSION]), Buffer.from(blobKey, 'utf8')]);

function wrapDataKey(header: Buffer, dataKey: Buffer, master: MasterKey) {
  header.write(master.id, at.keyId, KEY_ID_BYTES, 'hex');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(wrapAad(header));
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  iv.copy(header, at.wrapIv);
  wrapped.copy(header, at.wrappedKey);
  cipher.getAuthTag().copy(header, at.wrapTag);
}

function unwrapDataKey(stored: Buffer, master: MasterKey): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', master.key, stored.subarray(at.wrapIv, at.wrapIv + IV_BYTES));
  decipher.setAAD(wrapAad(stored));
  decipher.setAuthTag(stored.subarray(at.wrapTag, at.wrapTag + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(stored.subarray(at.wrappedKey, at.wrappedKey + DATA_KEY_BYTES)), decipher.final()]);
  } catch {
    throw new BlobIntegrityError("The blob's data key does not open with its master key: the header was altered or the key is wrong.");
  }
}

export function encryptBlob(blobKey: string, content: Buffer, master: MasterKey): Buffer {
  const dataKey = randomBytes(DATA_KEY_BYTES);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[at.version] = VERSION;
  wrapDataKey(header, dataKey, master);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
  cipher.setAAD(contentAad(blobKey));
  const ciphertext = Buffer.concat([cipher.update(content), cipher.final()]);
  iv.copy(header, at.dataIv);
  cipher.getAuthTag().copy(header, at.dataTag);
  return Buffer.concat([header, ciphertext]);
}

/**
 * The content of a stored blob; throws if any byte of it was changed, if its master key is missing, or if it is
 * not encrypted at all (legacy plaintext is the caller's decision, never this function's).
 */
export function decryptBlob(blobKey: string, stored: Buffer, findKey: (id: string) => MasterKey | undefined): Buffer {
  const keyId = storedKeyId(stored);
  if (keyId === 'legacy') throw new PlaintextBlobError(blobKey);
  const master = findKey(keyId);
  if (!master) throw new UnknownMasterKeyError(keyId);
  const dataKey = unwrapDataKey(stored, master);
  const decipher = createDecipheriv('aes-256-gcm', dataKey, stored.subarray(at.dataIv, at.dataIv + IV_BYTES));
  decipher.setAAD(contentAad(blobKey));
  decipher.setAuthTag(stored.subarray(at.dataTag, at.dataTag + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(stored.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    throw new BlobIntegrityError(`The blob ${blobKey} failed its integrity check: it was altered or damaged.`);
  }
}

/**
 * The same blob with its data key wrapped by `to` instead: only header bytes change, so `stored` may be the
 * header alone (HEADER_BYTES bytes). The content is not decrypted, but the old wrapping is verified first (a
 * damaged header is reported, not re-signed).
 */
export function rewrapBlob(stored: Buffer, findKey: (id: string) => MasterKey | undefined, to: MasterKey): Buffer {
  const keyId = storedKeyId(stored);
  if (keyId === 'legacy') throw new Error('rewrapBlob needs an encrypted blob');
  const from = findKey(keyId);
  if (!from) throw new UnknownMasterKeyError(keyId);
  const dataKey = unwrapDataKey(stored, from);
  const out = Buffer.from(stored);
  wrapDataKey(out, dataKey, to);
  return out;
}

/** The content's size from the stored size. */
export const contentSize = (storedSize: number, encrypted: boolean) => (encrypted ? storedSize - HEADER_BYTES : storedSize);
