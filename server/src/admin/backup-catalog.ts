/**
 * What a backup needs to know about the database, read from PostgreSQL's own catalog (the same on PGlite and
 * on a PostgreSQL server) rather than from a hand-kept list, so a table added by a later migration is backed up
 * without anyone remembering to add it: every table of the `public` schema, in foreign-key order, with the
 * columns a restore can insert, the columns that name blobs, and the migration level.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';

/** A database or an open transaction: both run statements the same way. */
export type Queryable = Pick<Database, 'execute'>;

export async function rowsOf<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/**
 * The column that, by this schema's convention, holds a blob store key (audio_chunks, research_patient_files,
 * custom_document_examples): the blobs in a backup are the ones its rows name.
 */
export const BLOB_KEY_COLUMN = 'blob_key';

/** Filled at every start (db/seed.ts), so a new database is not "empty" of them; a restore replaces them. */
export const SEEDED_TABLES = new Set(['medical_specialities']);

export type TableInfo = {
  name: string;
  /** Columns a restore writes (generated ones are left to the database). */
  columns: string[];
  primaryKey: string[];
  hasBlobKeys: boolean;
  /** A trigger refuses TRUNCATE (the audit log): a restore may add to it but never empty it. */
  appendOnly: boolean;
};

/** Tables in an order where every table comes after the tables it references. */
export async function listTables(db: Queryable): Promise<TableInfo[]> {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
  const columns = await rowsOf<{ table: string; column: string; generated: string }>(
    db,
    sql`SELECT c.relname AS "table", a.attname AS "column", a.attgenerated::text AS generated
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; column: string }>(
    db,
    sql`SELECT c.relname AS "table", a.attname AS "column"
        FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE n.nspname = 'public' AND i.indisprimary ORDER BY c.relname, k.ord`,
  );
  const references = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`SELECT cl.relname AS child, pr.relname AS parent
        FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_class pr ON pr.oid = co.confrelid
        JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE co.contype = 'f' AND n.nspname = 'public' ORDER BY cl.relname, co.conname`,
  );
  const guarded = await rowsOf<{ name: string }>(
    db,
    sql`SELECT DISTINCT c.relname AS name FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND NOT tg.tgisinternal AND (tg.tgtype & 32) <> 0`,
  );

  const info = new Map<string, TableInfo>(
    tables.map((t) => {
      const own = columns.filter((c) => c.table === t.name);
      return [
        t.name,
        {
          name: t.name,
          columns: own.filter((c) => !c.generated).map((c) => c.column),
          primaryKey: keys.filter((k) => k.table === t.name).map((k) => k.column),
          hasBlobKeys: own.some((c) => c.column === BLOB_KEY_COLUMN),
          appendOnly: guarded.some((g) => g.name === t.name),
        },
      ];
    }),
  );
  // Depth-first: parents before children. The references are read in a fixed order, so two listings of one schema
  // agree (PostgreSQL returns catalog rows in whatever order its plan gives, and a backup compared with a restore must match). A table referencing itself needs no ordering across tables.
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`Foreign keys form a cycle (${[...path, name].join(' → ')}): this backup cannot order them.`);
    state.set(name, 'visiting');
    for (const r of references) if (r.child === name && r.parent !== name && info.has(r.parent)) visit(r.parent, [...path, name]);
    state.set(name, 'done');
    ordered.push(info.get(name)!);
  };
  for (const t of tables) visit(t.name, []);
  return ordered;
}

export type MigrationLevel = { count: number; hashes: string[] };

/** Which migrations made this database's schema (drizzle keeps them in drizzle.__drizzle_migrations). */
export async function migrationLevel(db: Queryable): Promise<MigrationLevel> {
  const rows = await rowsOf<{ hash: string }>(db, sql`SELECT hash FROM drizzle.__drizzle_migrations ORDER BY created_at, id`);
  return { count: rows.length, hashes: rows.map((r) => r.hash) };
}

/** Moves every sequence behind a column (serial or identity) past the largest value restored. */
export async function resetSequences(db: Queryable): Promise<number> {
  const owned = await rowsOf<{ table: string; column: string; sequence: string }>(
    db,
    sql`SELECT c.relname AS "table", a.attname AS "column", pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS sequence
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`,
  );
  for (const o of owned) {
    const column = sql.identifier(o.column);
    await db.execute(
      sql`SELECT setval(${o.sequence}::regclass, COALESCE((SELECT max(${column}) FROM ${sql.identifier(o.table)}), 1),
                        (SELECT max(${column}) FROM ${sql.identifier(o.table)}) IS NOT NULL)`,
    );
  }
  return owned.length;
}
