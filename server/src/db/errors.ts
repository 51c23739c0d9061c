/** True for PostgreSQL's unique_violation (23505), as node-postgres and PGlite (through drizzle) report it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.cause?.code ?? e.code) === '23505';
}
