/** Reading and writing backup files record by record, as someone inspecting or crafting one would. */
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { createRecordWriter, readRecords, type BackupRecord, type SealKey } from '../admin/backup-format.js';

export async function readBackupRecords(file: string): Promise<BackupRecord[]> {
  const all: BackupRecord[] = [];
  for await (const { kind, name, data } of readRecords(Readable.from([readFileSync(file)]).pipe(createGunzip()))) all.push({ kind, name, data });
  return all;
}

/** The record of this kind (the end record's summary, the manifest…); the first if there are several. */
export const recordOf = (records: BackupRecord[], kind: BackupRecord['kind']) => records.find((r) => r.kind === kind)!;

/** A backup file of `records` (a seal among them is dropped), sealed anew with `seal`: a crafter holding that key. */
export async function writeBackupFile(file: string, records: BackupRecord[], seal: SealKey): Promise<void> {
  const chunks: Buffer[] = [];
  const sink = new Writable({ highWaterMark: 1 << 30, write: (chunk: Buffer, _enc, cb) => void (chunks.push(chunk), cb()) });
  const out = createRecordWriter(sink, seal);
  await out.start();
  for (const r of records) if (r.kind !== 'S') await out.record(r.kind, r.name, r.data);
  await out.seal();
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
}
