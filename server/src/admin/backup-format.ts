/**
 * The backup file: a gzip stream of length-prefixed records, simple enough to read with a few lines of any
 * language.
 *
 *   file    = gzip( magic "CNBACKUP" · format version (uint16) · record… )
 *   record  = kind (1 byte) · name length (uint32) · name (UTF-8) · data length (uint64) · data
 *
 * All integers big-endian. Kinds, in the order they appear:
 *   M  manifest (JSON): format, creation time, engine, migration level, tables in restore order with columns
 *   R  rows of the table `name`: JSON objects (PostgreSQL's row_to_json) one per line; a table spans many records
 *   B  the blob `name` (its key), bytes exactly as stored, i.e. still encrypted
 *   E  end (JSON): rows per table, blob count, the master-key ids the blobs need, the audit-key ids that sealed
 *      its audit log; a file without it is truncated
 *   S  seal, last: `name` the id of the audit key (audit/audit-key.ts) it was made with, `data` an HMAC-SHA-256
 *      under that key's backup key of every byte before it (magic, version, and each record's head and data)
 *
 * The seal authenticates the whole file, its order included, not only the audit log's chain and the encrypted
 * blobs: without the key nobody can change a row (a password hash, an admin flag, a transcript), drop, add or
 * reorder records and still have it restored. Format 1 had no seal and is refused.
 */
import { createHmac, createHash, timingSafeEqual, type Hmac } from 'node:crypto';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

export const BACKUP_MAGIC = Buffer.from('CNBACKUP', 'latin1');
export const BACKUP_FORMAT = 2;

export type RecordKind = 'M' | 'R' | 'B' | 'E' | 'S';
export type BackupRecord = { kind: RecordKind; name: string; data: Buffer };
/** A record as read: with its head exactly as it stands in the file (what the seal covers). */
export type ReadRecord = BackupRecord & { head: Buffer };

/** The key a backup is sealed with: an audit key's id and the backup key derived from it. */
export type SealKey = { id: string; backupKey: Buffer };

const startBytes = () => {
  const version = Buffer.alloc(2);
  version.writeUInt16BE(BACKUP_FORMAT);
  return Buffer.concat([BACKUP_MAGIC, version]);
};

function recordHead(kind: RecordKind, nameBytes: Buffer, dataLength: number): Buffer {
  const head = Buffer.alloc(1 + 4 + nameBytes.length + 8);
  head.write(kind, 0, 'latin1');
  head.writeUInt32BE(nameBytes.length, 1);
  nameBytes.copy(head, 5);
  head.writeBigUInt64BE(BigInt(dataLength), 5 + nameBytes.length);
  return head;
}

/** The running MAC of a file's bytes, from its first byte (the magic) to the seal record. */
export function createSealer(backupKey: Buffer): { add(record: { head: Buffer; data: Buffer }): void; digest(): Buffer } {
  const mac: Hmac = createHmac('sha256', backupKey).update(startBytes());
  return {
    add(record) {
      mac.update(record.head).update(record.data);
    },
    digest: () => mac.digest(),
  };
}

export const sealMatches = (expected: Buffer, given: Buffer) => given.length === expected.length && timingSafeEqual(expected, given);

/** A fingerprint of one record as read, to check that a second reading of the file finds the same bytes. */
export const recordDigest = (record: { head: Buffer; data: Buffer }) => createHash('sha256').update(record.head).update(record.data).digest();

export class BackupFormatError extends Error {}

/** Writes records to `out` (the gzip stream), waiting whenever it asks to; `seal()` ends the file. */
export function createRecordWriter(out: Writable, sealKey: SealKey) {
  const sealer = createSealer(sealKey.backupKey);
  let sealed = false;
  const write = async (chunk: Buffer) => {
    if (out.destroyed) throw new BackupFormatError('The backup file could not be written.');
    if (out.write(chunk)) return;
    // A stream destroyed by a failed write (disk full) never drains: its close ends the wait too.
    const ac = new AbortController();
    try {
      await Promise.race([
        once(out, 'drain', { signal: ac.signal }),
        once(out, 'close', { signal: ac.signal }).then(() => {
          throw new BackupFormatError('The backup file could not be written.');
        }),
      ]);
    } finally {
      ac.abort();
    }
  };
  return {
    async start() {
      await write(startBytes());
    },
    async record(kind: Exclude<RecordKind, 'S'>, name: string, data: Buffer) {
      if (sealed) throw new BackupFormatError('A sealed backup takes no more records.');
      const head = recordHead(kind, Buffer.from(name, 'utf8'), data.length);
      sealer.add({ head, data });
      await write(head);
      await write(data);
    },
    async seal() {
      sealed = true;
      const data = sealer.digest();
      await write(recordHead('S', Buffer.from(sealKey.id, 'utf8'), data.length));
      await write(data);
    },
  };
}

/** Pulls exact byte counts out of a stream of chunks without re-copying what it has buffered. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Exactly `n` bytes, or undefined at a clean end of the stream (nothing buffered). */
  async take(n: number): Promise<Buffer | undefined> {
    while (this.buffered < n) {
      const next = await this.source.next();
      if (next.done) {
        if (this.buffered === 0) return undefined;
        throw new BackupFormatError('The backup file ends in the middle of a record: it is truncated.');
      }
      this.chunks.push(next.value);
      this.buffered += next.value.length;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0]!;
      const used = Math.min(head.length, n - filled);
      head.copy(out, filled, 0, used);
      filled += used;
      if (used === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(used);
    }
    this.buffered -= n;
    return out;
  }
}

const KINDS = new Set(['M', 'R', 'B', 'E', 'S']);
/** Far above any blob or rows record this server writes; a larger length means a damaged file. */
const MAX_RECORD_BYTES = 2 ** 31;
/**
 * Rows, the manifest and the end record are written in batches of at most a few MB (admin/backup.ts): a larger one
 * is no backup of this server's, refused before its bytes are held in memory.
 */
const MAX_TEXT_RECORD_BYTES = 64 * 2 ** 20;
const MAX_NAME_BYTES = 4096;

/** Every record of a (decompressed) backup stream, checked for shape but not for meaning (nor its seal). */
export async function* readRecords(decompressed: Readable): AsyncGenerator<ReadRecord> {
  const reader = new ByteReader(decompressed[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  const start = await reader.take(BACKUP_MAGIC.length + 2);
  if (!start?.subarray(0, BACKUP_MAGIC.length).equals(BACKUP_MAGIC)) throw new BackupFormatError('This is not a backup made by this server.');
  const format = start.readUInt16BE(BACKUP_MAGIC.length);
  if (format === 1) {
    throw new BackupFormatError(
      'This backup was made by an earlier version of the server, which did not seal its backups, so nothing in it can be checked: restore it with the version that made it.',
    );
  }
  if (format !== BACKUP_FORMAT) throw new BackupFormatError(`The backup's format version is ${format}; this server reads version ${BACKUP_FORMAT}.`);
  for (;;) {
    const head = await reader.take(5);
    if (!head) return;
    const kind = head.toString('latin1', 0, 1);
    if (!KINDS.has(kind)) throw new BackupFormatError('The backup file is damaged (unknown record).');
    const nameLength = head.readUInt32BE(1);
    if (nameLength > MAX_NAME_BYTES) throw new BackupFormatError('The backup file is damaged (impossible name length).');
    const name = (await reader.take(nameLength)) ?? Buffer.alloc(0);
    const lengthBytes = await reader.take(8);
    if (!lengthBytes) throw new BackupFormatError('The backup file ends in the middle of a record: it is truncated.');
    const length = lengthBytes.readBigUInt64BE(0);
    if (length > BigInt(kind === 'B' ? MAX_RECORD_BYTES : MAX_TEXT_RECORD_BYTES))
      throw new BackupFormatError('The backup file is damaged (impossible record length).');
    const data = length === 0n ? Buffer.alloc(0) : await reader.take(Number(length));
    if (!data) throw new BackupFormatError('The backup file ends in the middle of a record: it is truncated.');
    yield { kind: kind as RecordKind, name: name.toString('utf8'), data, head: Buffer.concat([head, name, lengthBytes]) };
  }
}
