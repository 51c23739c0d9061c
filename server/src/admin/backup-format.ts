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
 */
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

export const BACKUP_MAGIC = Buffer.from('CNBACKUP', 'latin1');
export const BACKUP_FORMAT = 1;

export type RecordKind = 'M' | 'R' | 'B' | 'E';
export type BackupRecord = { kind: RecordKind; name: string; data: Buffer };

export class BackupFormatError extends Error {}

/** Writes records to `out` (the gzip stream), waiting whenever it asks to. */
export function createRecordWriter(out: Writable) {
  const write = async (chunk: Buffer) => {
    if (out.destroyed) throw new BackupFormatError('The backup file could not be written.');
    if (out.write(chunk)) return;
    // A stream destroyed by a failed write (disk full) never drains: its close ends the wait too.
    const ac = new AbortController();
    try {
      await Promise.race([once(out, 'drain', { signal: ac.signal }), once(out, 'close', { signal: ac.signal }).then(() => {
        throw new BackupFormatError('The backup file could not be written.');
      })]);
    } finally {
      ac.abort();
    }
  };
  return {
    async start() {
      const version = Buffer.alloc(2);
      version.writeUInt16BE(BACKUP_FORMAT);
      await write(Buffer.concat([BACKUP_MAGIC, version]));
    },
    async record(kind: RecordKind, name: string, data: Buffer) {
      const nameBytes = Buffer.from(name, 'utf8');
      const head = Buffer.alloc(1 + 4 + nameBytes.length + 8);
      head.write(kind, 0, 'latin1');
      head.writeUInt32BE(nameBytes.length, 1);
      nameBytes.copy(head, 5);
      head.writeBigUInt64BE(BigInt(data.length), 5 + nameBytes.length);
      await write(head);
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

const KINDS = new Set(['M', 'R', 'B', 'E']);
/** Far above any blob or rows record this server writes; a larger length means a damaged file. */
const MAX_RECORD_BYTES = 2 ** 31;
const MAX_NAME_BYTES = 4096;

/** Every record of a (decompressed) backup stream, checked for shape but not for meaning. */
export async function* readRecords(decompressed: Readable): AsyncGenerator<BackupRecord> {
  const reader = new ByteReader(decompressed[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  const start = await reader.take(BACKUP_MAGIC.length + 2);
  if (!start || !start.subarray(0, BACKUP_MAGIC.length).equals(BACKUP_MAGIC)) throw new BackupFormatError('This is not a backup made by this server.');
  const format = start.readUInt16BE(BACKUP_MAGIC.length);
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
    if (length > BigInt(MAX_RECORD_BYTES)) throw new BackupFormatError('The backup file is damaged (impossible record length).');
    const data = length === 0n ? Buffer.alloc(0) : await reader.take(Number(length));
    if (!data) throw new BackupFormatError('The backup file ends in the middle of a record: it is truncated.');
    yield { kind: kind as RecordKind, name: name.toString('utf8'), data };
  }
}
