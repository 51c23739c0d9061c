/**
 * Errors as they may be written to the log. A database error carries the values it was given: drizzle puts
 * every bound parameter in its message ("Failed query: … params: <the transcript>"), and PostgreSQL's `detail`
 * repeats the offending value ("Key (email)=(…) already exists"). Patient text must never reach a log, so a
 * database error is logged by its kind, SQLSTATE, table, column and constraint only, and its stack without the
 * first line (which repeats the message).
 */

type DatabaseErrorFields = { code?: unknown; table?: unknown; column?: unknown; constraint?: unknown; routine?: unknown; severity?: unknown };

/** The SQLSTATE of a database error (node-postgres and PGlite alike), also when drizzle wrapped it. */
export function sqlState(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    if (isDatabaseError(e) && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const isQueryError = (e: unknown): e is { query: unknown; params: unknown; cause?: unknown } =>
  typeof e === 'object' && e !== null && 'query' in e && 'params' in e;

const isDatabaseError = (e: unknown): e is Error & DatabaseErrorFields =>
  e instanceof Error && typeof (e as DatabaseErrorFields).code === 'string' && ('severity' in e || 'routine' in e);

/** The stack's frames only: the lines before them repeat the message, which may span several lines. */
const stackFrames = (e: Error) =>
  (e.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .join('\n');

type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

/** pino serializer for `err`: the standard fields, except that database errors lose every value they carry. */
export function serializeErrorSafely(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  if (isQueryError(err) || isDatabaseError(err)) {
    const db = (isQueryError(err) ? err.cause : err) as DatabaseErrorFields | undefined;
    return {
      type: err.constructor.name,
      message: 'database error (values withheld from the log)',
      sqlState: db?.code,
      table: db?.table,
      column: db?.column,
      constraint: db?.constraint,
      routine: db?.routine,
      // The statement itself has placeholders, not values.
      query: isQueryError(err) && typeof err.query === 'string' ? err.query.slice(0, 500) : undefined,
      stack: stackFrames(err),
    };
  }
  const out: SerializedError = { type: err.constructor.name, message: err.message, stack: err.stack ?? '' };
  const code = (err as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (err.cause !== undefined) out.cause = serializeErrorSafely(err.cause);
  return out;
}

/** An error's message for a log line or a stored status, with a database error's values left out. */
export function describeErrorSafely(err: unknown): string {
  return serializeErrorSafely(err).message;
}
