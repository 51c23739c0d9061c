/**
 * `npm run admin -- restore --from FILE [--force]`: puts a backup (admin/backup.ts) back.
 *
 * Two passes over the file. The first reads it whole and checks it before anything is touched: its seal (an HMAC
 * of every byte under an audit key this server has: admin/backup-format.ts), so nothing in it was changed, added,
 * dropped or moved by anyone without the key; the format, that it ends (not truncated), its counts, that this database has the same migrations as the one backed up, that
 * the master keys its blobs need are configured, that its audit log's hash chain verifies with the audit keys
 * this server has (audit/audit-key.ts: a chain that does not is refused, so a restore never carries a broken or
 * rewritten log over), and that this database is empty (or --force). The second
 * restores, in one transaction, each record only once it is found to be the very bytes the first pass checked
 * (a file changed between the passes is refused, and the transaction rolled back): rows in foreign-key order, blobs as stored (still encrypted; written before the
 * commit, so a row never points at a missing blob), sequences moved past the restored values. A failure rolls
 * the database back. With --force every table is emptied first, and after the commit the blobs that are not in
 * the backup are removed from the store.
 *
 * Blobs without encryption are accepted only from a backup whose manifest says it was made while its data folder's
 * migration from before encryption was pending, and only when they match the size and SHA-256 its own rows
 * recorded of them; they are encrypted under this server's key as they are restored, so the restored folder holds
 * no plaintext and never needs to accept any. Any other plaintext blob means an altered or crafted backup: the
 * restore is refused before anything is written.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { describeChainBreak } from '../audit/admin-commands.js';
import type { AuditKeys } from '../audit/audit-key.js';
import { auditRowFromJson, createChainVerifier, type ChainReport } from '../audit/audit-store.js';
import type { Database } from '../db/client.js';
import { encryptBlob, storedKeyId } from '../storage/blob-encryption.js';
import {
  BLOB_KEY_COLUMN,
  BLOB_SHA256_COLUMN,
  BLOB_SIZE_COLUMN,
  checkAgainstRecords,
  factsOf,
  type BlobFacts,
  type BlobRecord,
} from '../storage/blob-records.js';
import type { EncryptedBlobStore } from '../storage/encrypted-blob-store.js';
import type { BackupManifest, BackupSummary } from './backup.js';
import { listTables, migrationLevel, resetSequences, rowsOf, SEEDED_TABLES, type Queryable } from './backup-catalog.js';
import { BackupFormatError, createSealer, readRecords, recordDigest, sealMatches, type ReadRecord } from './backup-format.js';

export class RestoreRefusedError extends Error {}

export type RestoreReport = {
  manifest: BackupManifest;
  summary: BackupSummary;
  removedBlobs: number;
  /** Plaintext blobs of a backup made during the migration, encrypted as they were restored. */
  encryptedBlobs: number;
};

function records(file: string): AsyncGenerator<ReadRecord> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  return readRecords(source.pipe(gunzip));
}

const manifestSchema = z.object({
  format: z.literal(2),
  created_at: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  migrations: z.object({ count: z.number().int(), hashes: z.array(z.string()) }),
  tables: z.array(z.object({ name: z.string(), columns: z.array(z.string()) })),
  // Absent from backups made before the field existed: their plaintext blobs are refused.
  plaintext_migration_pending: z.boolean().default(false),
});
const summarySchema = z.object({
  rows: z.record(z.string(), z.number().int()),
  blobs: z.number().int(),
  blob_bytes: z.number().int(),
  missing_blobs: z.number().int(),
  plaintext_blobs: z.number().int(),
  refused_blobs: z.number().int().default(0),
  master_key_ids: z.array(z.string()),
  audit_key_ids: z.array(z.string()),
});

function parseJson<T>(data: Buffer, schema: z.ZodType<T>, what: string): T {
  try {
    return schema.parse(JSON.parse(data.toString('utf8')));
  } catch {
    throw new BackupFormatError(`The backup file is damaged (unreadable ${what}).`);
  }
}

/** What the rows of a table that names blobs recorded of each one (size, SHA-256). */
function collectBlobRecords(table: { columns: string[] } | undefined, data: Buffer, into: Map<string, BlobRecord[]>) {
  if (!table?.columns.includes(BLOB_KEY_COLUMN) || !data.length) return;
  for (const line of data.toString('utf8').split('\n')) {
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new BackupFormatError('The backup file is damaged (a row that is not JSON).');
    }
    const key = row[BLOB_KEY_COLUMN];
    if (typeof key !== 'string') continue;
    const size = row[BLOB_SIZE_COLUMN];
    const sha256 = row[BLOB_SHA256_COLUMN];
    into.set(key, [...(into.get(key) ?? []), { sizeBytes: typeof size === 'number' ? size : null, sha256: typeof sha256 === 'string' ? sha256 : null }]);
  }
}

/** Plaintext blobs are refused unless the backup was made during the migration and its rows vouch for them. */
function checkPlaintextBlobs(manifest: BackupManifest, plaintext: Map<string, BlobFacts>, records: Map<string, BlobRecord[]>) {
  if (!plaintext.size) return;
  const some = [...plaintext.keys()].slice(0, 3).join(', ');
  if (!manifest.plaintext_migration_pending) {
    throw new RestoreRefusedError(
      `The backup holds ${plaintext.size} unencrypted file(s) (${some}) but was made from a data folder that accepts none: ` +
        'it was altered or put together outside the server. Nothing was restored.',
    );
  }
  for (const [key, facts] of plaintext) {
    const named = records.get(key);
    if (!named?.length)
      throw new RestoreRefusedError(`The backup's unencrypted file ${key} is named by none of its rows: it was altered. Nothing was restored.`);
    try {
      checkAgainstRecords(key, facts, named);
    } catch (err) {
      throw new RestoreRefusedError(`${(err as Error).message} (in the backup). Nothing was restored.`);
    }
  }
}

const missingAuditKey = (what: string, ids: string[], auditKeys: AuditKeys) =>
  new RestoreRefusedError(
    `The ${what} is sealed with audit key ${ids.join(', ')}, which this server does not have (it has ${auditKeys.ids().join(', ') || 'none'}), so it cannot be verified. ` +
      'Pass the audit-key file saved with the backup as --audit-key-file FILE, or give the key in AUDIT_KEY. Nothing was restored.',
  );

/**
 * The running seal of the records read so far. The key is needed only at the seal record (the last), but the MAC
 * runs from the first byte: each record is added under every key this server could be asked to verify with, so
 * the file is read once. Audit keys are few (the current one and those imported to verify).
 */
function sealCheck(auditKeys: AuditKeys) {
  const sealers = new Map(auditKeys.ids().map((id) => [id, createSealer(auditKeys.find(id)!.backupKey)]));
  let sealedBy: string | undefined;
  return {
    add(r: ReadRecord) {
      if (r.kind !== 'S') {
        for (const s of sealers.values()) s.add(r);
        return;
      }
      const sealer = sealers.get(r.name);
      if (!sealer) throw missingAuditKey('backup file', [r.name || '?'], auditKeys);
      if (!sealMatches(sealer.digest(), r.data)) {
        throw new RestoreRefusedError(
          'The backup file does not match its seal: it was changed after the server wrote it (a row, a file, or the order of its records). Nothing was restored.',
        );
      }
      sealedBy = r.name;
    },
    sealedBy: () => sealedBy,
  };
}

/** The first pass: the whole file is read and checked; answers its manifest, end record and audit chain's report. */
async function verifyBackup(
  file: string,
  auditKeys: AuditKeys,
): Promise<{ manifest: BackupManifest; summary: BackupSummary; keyIds: Set<string>; audit: ChainReport; digests: Buffer[] }> {
  let manifest: BackupManifest | undefined;
  let summary: BackupSummary | undefined;
  const seal = sealCheck(auditKeys);
  const digests: Buffer[] = [];
  const rows: Record<string, number> = {};
  const keyIds = new Set<string>();
  let blobs = 0;
  // The backup's rows of a table are in primary-key order: the audit log's are its chain, in order.
  const chain = createChainVerifier(auditKeys);
  const blobRecords = new Map<string, BlobRecord[]>();
  const plaintext = new Map<string, BlobFacts>();
  let problem: BackupFormatError | undefined;
  const readContent = (r: ReadRecord) => {
    if (summary) throw new BackupFormatError('The backup file is damaged (data after its end).');
    if (r.kind === 'M') {
      if (manifest) throw new BackupFormatError('The backup file is damaged (two manifests).');
      manifest = parseJson(r.data, manifestSchema, 'manifest');
      return;
    }
    if (!manifest) throw new BackupFormatError('The backup file is damaged (no manifest).');
    if (r.kind === 'R') {
      const table = manifest.tables.find((t) => t.name === r.name);
      if (!table) throw new BackupFormatError('The backup file is damaged (rows of a table its manifest does not list).');
      const lines = r.data.length ? r.data.toString('utf8').split('\n') : [];
      rows[r.name] = (rows[r.name] ?? 0) + lines.length;
      collectBlobRecords(table, r.data, blobRecords);
      if (r.name === 'audit_events') {
        for (const line of lines) {
          const row = auditRowFromJson(parseLine(line));
          if (!row) throw new BackupFormatError('The backup file is damaged (an audit event cannot be read).');
          chain.push(row);
        }
      }
    } else if (r.kind === 'B') {
      const keyId = storedKeyId(r.data);
      if (keyId !== 'legacy') keyIds.add(keyId);
      else plaintext.set(r.name, factsOf(r.data));
      blobs++;
    } else {
      summary = parseJson(r.data, summarySchema, 'end record');
    }
  };
  try {
    for await (const r of records(file)) {
      if (seal.sealedBy()) throw new BackupFormatError('The backup file is damaged (data after its seal).');
      digests.push(recordDigest(r));
      seal.add(r);
      if (r.kind === 'S' || problem) continue;
      try {
        readContent(r);
      } catch (err) {
        // Told only once the seal holds: a changed file is named as changed, not by what the change broke (any
        // error: content no server wrote can break the reading in ways of its own).
        problem =
          err instanceof BackupFormatError
            ? err
            : new BackupFormatError(`The backup file is damaged (${err instanceof Error ? err.message : 'unreadable content'}).`);
      }
    }
  } catch (err) {
    if (err instanceof BackupFormatError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupFormatError(`There is no file ${file}.`);
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
      throw new BackupFormatError('The backup file is damaged or truncated (its compression does not check out).');
    throw err;
  }
  if (!seal.sealedBy()) throw new BackupFormatError('The backup file has no seal: it is truncated, or was not written by this server. Nothing was restored.');
  if (problem) throw problem;
  if (!manifest) throw new BackupFormatError('The backup file is empty.');
  if (!summary) throw new BackupFormatError('The backup file has no end: it is truncated (the backup did not finish).');
  const counted = Object.entries(summary.rows).every(([t, n]) => (rows[t] ?? 0) === n) && Object.keys(rows).every((t) => t in summary!.rows);
  if (!counted || blobs !== summary.blobs) throw new BackupFormatError('The backup file is damaged (its counts do not match its content).');
  // After the whole file: the rows that vouch for a blob may come anywhere in it.
  checkPlaintextBlobs(manifest, plaintext, blobRecords);
  return { manifest, summary, keyIds, audit: chain.report(), digests };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

async function nonEmptyTables(db: Queryable, tables: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const t of tables) {
    if (SEEDED_TABLES.has(t)) continue;
    const [row] = await rowsOf<{ any: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(t)}) AS any`);
    if (row?.any) found.push(t);
  }
  return found;
}

export async function restoreBackup(
  db: Database,
  store: EncryptedBlobStore,
  auditKeys: AuditKeys,
  opts: { file: string; force: boolean },
): Promise<RestoreReport> {
  const file = path.resolve(opts.file);
  const { manifest, summary, keyIds, audit, digests } = await verifyBackup(file, auditKeys);

  const level = await migrationLevel(db);
  const sameLevel = level.count === manifest.migrations.count && level.hashes.every((h, i) => h === manifest.migrations.hashes[i]);
  if (!sameLevel) {
    throw new RestoreRefusedError(
      `The backup was made at migration level ${manifest.migrations.count} and this database is at ${level.count}: ` +
        'restore it with the version of the server that made it (then upgrade by starting the newer version).',
    );
  }
  const tables = await listTables(db);
  const names = new Set(tables.map((t) => t.name));
  const unknown = manifest.tables.map((t) => t.name).filter((t) => !names.has(t));
  if (unknown.length) throw new RestoreRefusedError(`The backup holds tables this database does not have (${unknown.join(', ')}).`);

  const missingKeys = [...keyIds].filter((id) => !store.keys.find(id));
  if (missingKeys.length) {
    throw new RestoreRefusedError(
      `The backup's blobs need master key ${missingKeys.join(', ')}, which this server does not have (it has ${store.keys.ids().join(', ') || 'none'}). ` +
        'Pass the key ring file saved with the backup as --key-file FILE, or give the key in ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS.',
    );
  }
  const missingAuditKeys = summary.audit_key_ids.filter((id) => !auditKeys.find(id));
  if (missingAuditKeys.length || (!audit.ok && audit.reason === 'unknown_key')) {
    throw missingAuditKey("backup's audit log", missingAuditKeys.length ? missingAuditKeys : [!audit.ok ? (audit.keyId ?? '?') : '?'], auditKeys);
  }
  if (!audit.ok) {
    throw new RestoreRefusedError(`The backup's audit log does not verify, so it is not restored. ${describeChainBreak(audit)}`);
  }
  const appendOnly = tables.filter((t) => t.appendOnly).map((t) => t.name);
  const busy = await nonEmptyTables(db, [...names]);
  const busyAppendOnly = busy.filter((t) => appendOnly.includes(t));
  if (busyAppendOnly.length && (opts.force || busyAppendOnly.length === busy.length)) {
    // Nothing may empty an audit log, not even a restore; a database holding only events (of earlier commands,
    // say) is easily made anew.
    throw new RestoreRefusedError(
      `${busyAppendOnly.join(', ')} already has rows (events of earlier commands) and is append-only: ` +
        'nothing can empty it. Restore into a new database: stop the server and remove DATA_DIR/db (embedded database), ' +
        'or create a new PostgreSQL database for DATABASE_URL, then run restore again.',
    );
  }
  if (busy.length && !opts.force)
    throw new RestoreRefusedError(
      `The database is not empty (${busy.join(', ')} have rows). Restore into a new one, or pass --force to replace everything in it.`,
    );

  const restoredBlobs = new Set<string>();
  // Blobs are written before the commit (a row never points at a missing one): those this restore added are
  // removed again if it fails, so a refused restore leaves the store as it found it.
  const storedBefore = new Set<string>();
  for await (const key of store.list()) storedBefore.add(key);
  let encryptedBlobs = 0;
  try {
    await restoreRows();
  } catch (err) {
    for (const key of restoredBlobs) if (!storedBefore.has(key)) await store.delete(key).catch(() => undefined);
    throw err;
  }
  async function restoreRows() {
    await db.transaction(async (tx) => {
      if (opts.force) {
        // Append-only tables are empty (checked above) and refuse TRUNCATE even then.
        const emptied = tables.filter((t) => !t.appendOnly);
        if (emptied.length)
          await tx.execute(
            sql`TRUNCATE TABLE ${sql.join(
              emptied.map((t) => sql.identifier(t.name)),
              sql`, `,
            )}`,
          );
      } else {
        for (const t of tables) if (SEEDED_TABLES.has(t.name)) await tx.execute(sql`DELETE FROM ${sql.identifier(t.name)}`);
      }
      const byName = new Map(tables.map((t) => [t.name, t]));
      let index = 0;
      for await (const r of records(file)) {
        const checked = digests[index++];
        if (!checked?.equals(recordDigest(r))) {
          throw new RestoreRefusedError(
            'The backup file changed while it was being restored: the database was left as it was. Restore from a copy nobody is writing to.',
          );
        }
        if (r.kind === 'R') {
          const table = byName.get(r.name)!;
          const cols = sql.join(
            table.columns.map((c) => sql.identifier(c)),
            sql`, `,
          );
          // PostgreSQL turns its own row_to_json text back into the row: every type round-trips exactly, on both engines.
          await tx.execute(
            sql`INSERT INTO ${sql.identifier(table.name)} (${cols}) OVERRIDING SYSTEM VALUE
                SELECT ${cols} FROM json_populate_recordset(NULL::${sql.identifier(table.name)}, ${`[${r.data.toString('utf8').split('\n').join(',')}]`}::json)`,
          );
        } else if (r.kind === 'B') {
          // Checked in the first pass; encrypted here so the restored folder holds no plaintext.
          const legacy = storedKeyId(r.data) === 'legacy';
          await store.driver.put(r.name, legacy ? encryptBlob(r.name, r.data, store.keys.current()) : r.data);
          if (legacy) encryptedBlobs++;
          restoredBlobs.add(r.name);
        }
      }
      if (index !== digests.length)
        throw new RestoreRefusedError(
          'The backup file changed while it was being restored (it is shorter): the database was left as it was. Restore from a copy nobody is writing to.',
        );
      await resetSequences(tx);
    });
  }

  let removedBlobs = 0;
  if (opts.force) {
    for await (const key of store.list()) {
      if (restoredBlobs.has(key)) continue;
      await store.delete(key);
      removedBlobs++;
    }
  }
  return { manifest, summary, removedBlobs, encryptedBlobs };
}
