/**
 * What the database recorded of a blob when it was stored: its size (every table that names blobs keeps
 * size_bytes) and, for audio parts, the SHA-256 of its content (audio_chunks.content_sha256, kept since before
 * encryption for repeat uploads). A blob from before encryption has no authentication of its own, so while the
 * migration is pending it is checked against these before it is used, backed up into a restore or encrypted by
 * rotate-key: a file swapped in under its name is refused, not laundered into an authenticated blob.
 *
 * Tables are found by their columns in PostgreSQL's catalog (like the backup's), so a table that names blobs
 * added by a later migration is checked too.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { BlobIntegrityError } from './blob-encryption.js';
import type { PlaintextBlobCheck } from './encrypted-blob-store.js';

/** A database or an open transaction. */
type Queryable = Pick<Database, 'execute'>;

export type BlobRecord = { sizeBytes?: number | null; sha256?: string | null };

export class BlobRecordMismatchError extends BlobIntegrityError {
  constructor(
    readonly blobKey: string,
    what: 'size' | 'SHA-256',
  ) {
    super(
      `The blob ${blobKey} is not encrypted and its ${what} differs from what was recorded when it was stored: it was altered or swapped. Its content is not used.`,
    );
  }
}

/** What a blob's records are compared with. */
export type BlobFacts = { size: number; sha256: string };
export const factsOf = (content: Buffer): BlobFacts => ({ size: content.length, sha256: createHash('sha256').update(content).digest('hex') });

/** Throws unless the content matches every record of the blob (no record: nothing to check against). */
export function checkAgainstRecords(blobKey: string, facts: BlobFacts, records: BlobRecord[]): void {
  for (const r of records) {
    if (r.sizeBytes !== undefined && r.sizeBytes !== null && Number(r.sizeBytes) !== facts.size) throw new BlobRecordMismatchError(blobKey, 'size');
    if (r.sha256 && r.sha256 !== facts.sha256) throw new BlobRecordMismatchError(blobKey, 'SHA-256');
  }
}

export const BLOB_KEY_COLUMN = 'blob_key';
export const BLOB_SIZE_COLUMN = 'size_bytes';
export const BLOB_SHA256_COLUMN = 'content_sha256';

async function rowsOf<T>(db: Queryable, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

type BlobTable = { name: string; size: boolean; sha256: boolean };

async function blobTables(db: Queryable): Promise<BlobTable[]> {
  const columns = await rowsOf<{ table: string; column: string }>(
    db,
    sql`SELECT c.relname AS "table", a.attname AS "column"
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attname IN (${BLOB_KEY_COLUMN}, ${BLOB_SIZE_COLUMN}, ${BLOB_SHA256_COLUMN})
        ORDER BY c.relname`,
  );
  const tables = new Map<string, Set<string>>();
  for (const c of columns) tables.set(c.table, (tables.get(c.table) ?? new Set()).add(c.column));
  return [...tables]
    .filter(([, cols]) => cols.has(BLOB_KEY_COLUMN))
    .map(([name, cols]) => ({ name, size: cols.has(BLOB_SIZE_COLUMN), sha256: cols.has(BLOB_SHA256_COLUMN) }));
}

/** The records of `blobKey` in every table that names blobs. */
export async function recordsOfBlob(db: Queryable, blobKey: string, tables?: BlobTable[]): Promise<BlobRecord[]> {
  const records: BlobRecord[] = [];
  for (const t of tables ?? (await blobTables(db))) {
    const size = t.size ? sql.identifier(BLOB_SIZE_COLUMN) : sql`NULL::integer`;
    const sha256 = t.sha256 ? sql.identifier(BLOB_SHA256_COLUMN) : sql`NULL::text`;
    const rows = await rowsOf<{ size_bytes: number | null; sha256: string | null }>(
      db,
      sql`SELECT ${size} AS size_bytes, ${sha256} AS sha256 FROM ${sql.identifier(t.name)} WHERE ${sql.identifier(BLOB_KEY_COLUMN)} = ${blobKey}`,
    );
    records.push(...rows.map((r) => ({ sizeBytes: r.size_bytes, sha256: r.sha256 })));
  }
  return records;
}

/** The store's check of plaintext blobs, against this database. */
export function plaintextCheckFromDatabase(db: Queryable): PlaintextBlobCheck {
  let tables: Promise<BlobTable[]> | undefined;
  return async (blobKey, content) => {
    tables ??= blobTables(db).catch((err: unknown) => {
      tables = undefined;
      throw err;
    });
    checkAgainstRecords(blobKey, factsOf(content), await recordsOfBlob(db, blobKey, await tables));
  };
}
