/**
 * A command refused before it ran: wrong or missing arguments, or something it must not do. Its own module, so
 * that the command tables (commands.ts, backup-commands.ts) can both throw it without importing each other.
 */
export class UsageError extends Error {
  /** Set by a restore refused before it changed anything: see audit/admin-commands.ts. */
  restoreRefusedUnchanged = false;
}
