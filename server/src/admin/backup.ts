/**
 * `npm run admin -- backup --to FILE`: the database and the blobs in one file (format: admin/backup-format.ts).
 *
 * Consistent: every table is read in one REPEATABLE READ, read-only transaction (one snapshot of the whole
 * database), and the blobs copied are the ones the rows of that snapshot name. Blobs are copied as stored, so
 * they stay encrypted; the file lists the master-key ids they need and the ids of the audit keys that sealed its
 * audit log, and the keys themselves are never in it.
 * Sealed: the file ends with an HMAC of all of it under the server's audit key (admin/backup-format.ts), so a
 * restore refuses a file changed anywhere by someone without that key.
 * Logical: rows are read through SQL, so deleted rows (dead tuples still in the database files until a vacuum)
 * never reach a backup. The file is written under a temporary name with mode 0600, flushed to disk, then
 * renamed: a backup interrupted halfway never replaces a good one.
 *
 * Blobs from before encryption are copied as they are only while the data folder's migration is pending, and the
 * manifest says so (a restore accepts plaintext blobs only from such a backup, and encrypts them). In a folder
 * that accepts no plaintext, an unencrypted file is not a blob the server wrote: it is left out and counted.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { storedKeyId } from '../storage/blob-encryption.js';
import type { EncryptedBlobStore } from '../storage/encrypted-blob-store.js';
import { createRecordWriter, type SealKey } from './backup-format.js';
import { BLOB_KEY_COLUMN, listTables, migrationLevel, rowsOf } from './backup-catalog.js';

/** Rows per record: big enough to be quick, small enough to restore as one statement. */
const ROWS_PER_RECORD = 500;
const BYTES_PER_RECORD = 4 * 1024 * 1024;

export type BackupManifest = {
  format: 2;
  created_at: string;
  engine: 'pglite' | 'postgres';
  migrations: { count: number; hashes: string[] };
  tables: { name: string; columns: string[] }[];
  /** The data folder still held blobs from before encryption: its plaintext blobs are in the backup as they are. */
  plaintext_migration_pending: boolean;
};

export type BackupSummary = {
  rows: Record<string, number>;
  blobs: number;
  blob_bytes: number;
  /** Blobs a row names but the store no longer has (audio removed after transcription, for instance). */
  missing_blobs: number;
  plaintext_blobs: number;
  /** Unencrypted files in a folder that accepts none (put there from outside the server): not copied. */
  refused_blobs: number;
  master_key_ids: string[];
  /** The audit keys that sealed the backup's audit events (audit/audit-key.ts): a restore needs them to verify. */
  audit_key_ids: string[];
};

export async function createBackup(
  db: Database,
  store: EncryptedBlobStore,
  opts: { file: string; engine: 'pglite' | 'postgres'; seal: SealKey },
): Promise<BackupSummary & { file: string; bytes: number; refusedKeys: string[] }> {
  const file = path.resolve(opts.file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  // Opened first, so a wrong folder or a file in the way is reported before the database is read.
  const handle = await open(tmp, 'wx', 0o600);
  const gzip = createGzip();
  let writeError: unknown;
  const written = pipeline(gzip, handle.createWriteStream()).catch((err: unknown) => {
    writeError = err;
  });
  const out = createRecordWriter(gzip, opts.seal);
  const summary: BackupSummary = {
    rows: {},
    blobs: 0,
    blob_bytes: 0,
    missing_blobs: 0,
    plaintext_blobs: 0,
    refused_blobs: 0,
    master_key_ids: [],
    audit_key_ids: [],
  };
  const plaintextAccepted = store.plaintextMigration.pending();
  const refusedKeys: string[] = [];
  try {
    await out.start();
    const blobKeys = await db.transaction(
      async (tx) => {
        const tables = await listTables(tx);
        const manifest: BackupManifest = {
          format: 2,
          created_at: new Date().toISOString(),
          engine: opts.engine,
          migrations: await migrationLevel(tx),
          tables: tables.map((t) => ({ name: t.name, columns: t.columns })),
          plaintext_migration_pending: plaintextAccepted,
        };
        await out.record('M', '', Buffer.from(JSON.stringify(manifest)));
        const keys = new Set<string>();
        for (const table of tables) {
          summary.rows[table.name] = 0;
          const order = table.primaryKey.length
            ? sql` ORDER BY ${sql.join(
                table.primaryKey.map((c) => sql.identifier(c)),
                sql`, `,
              )}`
            : sql``;
          // A cursor keeps memory flat on big tables; it reads the transaction's snapshot like every query here.
          await tx.execute(sql`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${sql.identifier(table.name)} AS t${order}`);
          let batch: string[] = [];
          let batchBytes = 0;
          const flush = async () => {
            if (!batch.length) return;
            await out.record('R', table.name, Buffer.from(batch.join('\n'), 'utf8'));
            summary.rows[table.name]! += batch.length;
            batch = [];
            batchBytes = 0;
          };
          for (;;) {
            const rows = await rowsOf<{ j: string }>(tx, sql`FETCH ${sql.raw(String(ROWS_PER_RECORD))} FROM backup_rows`);
            for (const r of rows) {
              batch.push(r.j);
              batchBytes += r.j.length;
              if (batch.length >= ROWS_PER_RECORD || batchBytes >= BYTES_PER_RECORD) await flush();
            }
            if (rows.length < ROWS_PER_RECORD) break;
          }
          await flush();
          await tx.execute(sql`CLOSE backup_rows`);
          if (table.hasBlobKeys) {
            const named = await rowsOf<{ k: string }>(
              tx,
              sql`SELECT DISTINCT ${sql.identifier(BLOB_KEY_COLUMN)} AS k FROM ${sql.identifier(table.name)} WHERE ${sql.identifier(BLOB_KEY_COLUMN)} IS NOT NULL`,
            );
            for (const n of named) keys.add(n.k);
          }
        }
        const auditKeys = await rowsOf<{ k: string }>(tx, sql`SELECT DISTINCT hash_key_id AS k FROM audit_events WHERE hash_key_id IS NOT NULL ORDER BY 1`);
        summary.audit_key_ids = auditKeys.map((r) => r.k);
        return [...keys].sort();
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );

    // After the snapshot's transaction, so a long copy does not hold the database (PGlite serves one at a time).
    // Stored blobs never change content (a rotation changes only their header), so they match the snapshot.
    const keyIds = new Set<string>();
    for (const key of blobKeys) {
      const stored = await store.driver.get(key);
      if (!stored) {
        summary.missing_blobs++;
        continue;
      }
      const keyId = storedKeyId(stored);
      if (keyId === 'legacy') {
        if (!plaintextAccepted) {
          summary.refused_blobs++;
          refusedKeys.push(key);
          continue;
        }
        summary.plaintext_blobs++;
      } else keyIds.add(keyId);
      await out.record('B', key, stored);
      summary.blobs++;
      summary.blob_bytes += stored.length;
    }
    summary.master_key_ids = [...keyIds].sort();
    await out.record('E', '', Buffer.from(JSON.stringify(summary)));
    await out.seal();
    gzip.end();
    await written;
    if (writeError) throw writeError;
    const done = await open(tmp, 'r+');
    let bytes: number;
    try {
      await done.sync();
      bytes = (await done.stat()).size;
    } finally {
      await done.close();
    }
    await rename(tmp, file);
    const dir = await open(path.dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return { ...summary, file, bytes, refusedKeys };
  } catch (err) {
    gzip.destroy();
    await written;
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    // The file system's own error (disk full, …) says more than the stream closing under us.
    throw writeError ?? err;
  }
}
