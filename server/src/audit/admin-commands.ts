/**
 * The audit log's side of support's admin commands (admin/commands.ts): every command run, whether from the CLI on
 * its own connection or by a running server on the CLI's behalf, is recorded with its name and outcome (never its
 * arguments, which hold names and e-mail addresses); and `verify-audit-log` checks the hash chain.
 */
import { userInfo } from 'node:os';
import type { Database } from '../db/client.js';
import type { AuditKeys } from './audit-key.js';
import { appendAuditEvents, verifyAuditChain, type ChainReport } from './audit-store.js';

/** Runs one admin command and appends its event; `name` is null for a name that is not a command. */
export async function recordAdminCommand(db: Database, keys: AuditKeys, name: string | null, run: () => Promise<string[]>): Promise<string[]> {
  let lines: string[] = [];
  let failure: { err: unknown } | undefined;
  try {
    lines = await run();
  } catch (err) {
    failure = { err };
  }
  // A restore goes into an empty database, and the log is append-only: an event of a refused attempt would make
  // the next attempt impossible. A refusal before anything was written read and changed nothing, so it is only
  // reported to the operator.
  if (failure && name === 'restore' && (failure.err as { restoreRefusedUnchanged?: unknown }).restoreRefusedUnchanged === true) throw failure.err;
  try {
    await appendAuditEvents(db, keys, [
      {
        occurredAt: new Date(),
        actorUserId: null,
        actorOrganizationId: null,
        actorKind: 'admin_cli',
        action: 'execute',
        resourceType: 'admin_command',
        resourceId: name,
        extraIds: {},
        outcome: failure ? 'failure' : 'success',
        statusCode: null,
        clientAddress: 'local',
        userAgent: `admin-cli (${osUser()})`,
      },
    ]);
  } catch (err) {
    // The command's own failure matters more; a command that worked must still say its event is missing.
    if (!failure) throw new Error(`The command ran, but its audit event could not be written (${err instanceof Error ? err.name : 'error'}).`);
  }
  if (failure) throw failure.err;
  return lines;
}

function osUser(): string {
  try {
    return (
      userInfo()
        .username.replace(/[^\w.@-]/g, '')
        .slice(0, 64) || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

/** Thrown when the chain is broken: the CLI prints it and exits with status 1. */
export type VerifyFailure = (message: string) => Error;

/** What a broken chain means, for the operator. */
export function describeChainBreak(report: Extract<ChainReport, { ok: false }>): string {
  const why = {
    hash_mismatch: 'its fields are not those its hash was made from with the audit key (the row was changed, or its hash forged)',
    chain_mismatch: 'it does not follow the event before it (an event was removed, added or reordered)',
    id_gap: `the events after ${report.lastGoodId} and before it are missing (an event was removed)`,
    unknown_key: `it was sealed with audit key ${report.keyId ?? '?'}, which this server does not have (give it in AUDIT_KEY or in the audit-key file of DATA_DIR)`,
    legacy_after_keyed: 'it carries an unkeyed hash after keyed ones, which no server writes (events were rewritten)',
  }[report.reason];
  return `The audit log is broken at event ${report.brokenAt}: ${why}. The ${report.count} events before it are intact.`;
}

/**
 * `verify-audit-log [--expect-hash <hash>]`: walks the chain and reports the first broken event. With a hash noted
 * down from an earlier run, also proves that nothing after that point was cut from the end or rewritten.
 */
export async function verifyAuditLogCommand(db: Database, keys: AuditKeys, expectHash: string | undefined, fail: VerifyFailure): Promise<string[]> {
  const report = await verifyAuditChain(db, keys, expectHash);
  if (!report.ok) throw fail(describeChainBreak(report));
  if (report.count > 0 && report.legacy === report.count) {
    // Unkeyed events are vouched for only by a keyed event after them; a log of unkeyed events alone is either one
    // nothing was written to since the upgrade or one whose keyed events were rewritten without the key.
    throw fail(
      `The audit log's ${report.count} events all have unkeyed hashes, and no event sealed with the audit key follows them: ` +
        'either nothing was recorded since the upgrade that introduced the key (run any admin command or use the app, then check again) or the log was rewritten.',
    );
  }
  if (expectHash && !report.sawExpected) {
    throw fail(
      `The audit log's ${report.count} events are chained correctly, but none has the hash ${expectHash}: events were removed from the end or the log was rewritten.`,
    );
  }
  return [
    `The audit log is intact: ${report.count} events, each chained to the one before${report.legacy ? ` (the first ${report.legacy} from before the chain had a key, vouched for by the keyed events after them)` : ''}.`,
    `Newest hash: ${report.headHash}`,
    'Keep this hash apart from the server; a later check with --expect-hash <hash> also proves nothing was cut from the end.',
  ];
}
