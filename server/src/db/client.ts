/**
 * Opens the database: PGlite in DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set.
 * Both run the same drizzle migrations, so the schema is identical wherever the data lives.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DurableNodeFS, durableStartParams } from './durable-nodefs.js';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';
import type { Database } from './database.js';
import { seedReferenceData } from './seed.js';
import { SERVER_SOURCES } from '../paths.js';

// Most of the server takes the type from here, with the functions that open the database.
export type { Database };

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
};

/** An arbitrary constant naming this application's migration lock. */
const MIGRATION_LOCK = 4_173_920_561;

const migrationsFolder = path.join(SERVER_SOURCES, 'db/migrations');

/** `dataDir: ':memory:'` keeps a PGlite database in memory (tests, benchmarks). */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; onIdleError?: (err: Error) => void }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection dropped by the server (a PostgreSQL restart or failover) must not crash the process:
    // the pool discards it and opens a new one on the next query.
    pool.on('error', (err) => opts.onIdleError?.(err));
    const db = drizzlePg(pool, { schema });
    // Processes starting together (a rolling deploy) migrate one at a time: the others wait, then find nothing
    // left to do, instead of both creating the same tables.
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(db, { migrationsFolder });
      await seedReferenceData(db as unknown as Database);
    } finally {
      // A connection that could not let go of the lock is closed, not pooled: closing ends its session and the lock.
      const unlocked = await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).then(
        () => undefined,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
      lock.release(unlocked);
    }
    return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
  }
  // On disk, commits are synced (db/durable-nodefs.ts); in memory (tests, benchmarks) there is no disk to sync.
  const client =
    opts.dataDir === ':memory:'
      ? await PGlite.create()
      : await PGlite.create({ fs: new DurableNodeFS(path.join(opts.dataDir, 'db')), startParams: durableStartParams() });
  // Log segments are deleted, not renamed for reuse, once a checkpoint is past them: a reused one would keep old
  // entries (deleted consultations' text) in its unwritten part (jobs/retention.ts, scrubDeletedRows).
  await client.exec('SET wal_recycle = off');
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  await seedReferenceData(db as unknown as Database);
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}
