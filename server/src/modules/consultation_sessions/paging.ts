import { desc, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';

/** A page of lists: at most this many rows, the next ones asked for with the last row's time and id. */
export const PAGE_SIZE = 200;

/**
 * `?before=` the last row's time as the API shows it and `&before_id=` its id: the next page starts after that row
 * exactly. The time alone skipped rows: two consultations can share a millisecond, and the database keeps
 * microseconds the API does not show, so the order is by the time to the millisecond, then by id.
 */
export const pageQuery = z
  .object({ before: z.iso.datetime({ offset: true, error: 'invalid_date' }).optional(), before_id: z.uuid({ error: 'invalid_id' }).optional() })
  .strict()
  // An id without its time would start again from the first page: a client paging on would never end.
  .refine((q) => q.before_id === undefined || q.before !== undefined, { error: 'before_id_without_before', path: ['before'] });
export type PageQuery = z.infer<typeof pageQuery>;
export type PageCursor = { before: Date; beforeId?: string };

export function pageCursor(query: PageQuery): PageCursor | undefined {
  return query.before ? { before: new Date(query.before), beforeId: query.before_id } : undefined;
}

const toMillisecond = (column: PgColumn) => sql`date_trunc('milliseconds', ${column})`;

/** Rows after the cursor in the order of `newestFirst`, or none of them left out without one. */
export function afterCursor(time: PgColumn, id: PgColumn, cursor: PageCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const at = cursor.before.toISOString();
  return cursor.beforeId
    ? sql`(${toMillisecond(time)}, ${id}) < (${at}::timestamptz, ${cursor.beforeId}::uuid)`
    : sql`${toMillisecond(time)} < ${at}::timestamptz`;
}

export function newestFirst(time: PgColumn, id: PgColumn): SQL[] {
  return [desc(toMillisecond(time)), desc(id)];
}
