import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

/**
 * The database as the code sees it, whichever driver opened it (client.ts): PGlite or PostgreSQL. Its own module,
 * so that what client.ts runs when it opens the database (the reference data of seed.ts) can take it without
 * importing client.ts back.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
