/**
 * The audit log's hash chain. Each row's hash is the SHA-256 of a canonical text of its own fields followed by the
 * previous row's hash, so changing, removing or reordering any row breaks every link after it. The text is a JSON
 * array in a fixed order (related ids as sorted pairs), so the same row always gives the same hash whichever
 * database engine stored it.
 */
import { createHash } from 'node:crypto';
import type { AuditAction, AuditActorKind, AuditOutcome, AuditResourceType } from '../../../contract/audit-events.js';

/** The "previous hash" of the first row. */
export const GENESIS_HASH = '0'.repeat(64);
/** Changes whenever the canonical text changes, so an old chain is never read with new rules. */
const FORMAT = 'audit_event/v1';

/** An event as it is stored, before its place in the chain is known. */
export type AuditEventFields = {
  occurredAt: Date;
  actorUserId: string | null;
  actorOrganizationId: string | null;
  actorKind: AuditActorKind;
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId: string | null;
  extraIds: Record<string, string>;
  outcome: AuditOutcome;
  statusCode: number | null;
  clientAddress: string | null;
  userAgent: string | null;
};

/** The same fields as read back from the table (plain strings there). */
export type StoredEventFields = { [K in keyof AuditEventFields]: AuditEventFields[K] extends string ? string : AuditEventFields[K] };

export function canonicalText(e: StoredEventFields, prevHash: string): string {
  return JSON.stringify([
    FORMAT,
    e.occurredAt.toISOString(),
    e.actorUserId,
    e.actorOrganizationId,
    e.actorKind,
    e.action,
    e.resourceType,
    e.resourceId,
    Object.entries(e.extraIds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    e.outcome,
    e.statusCode,
    e.clientAddress,
    e.userAgent,
    prevHash,
  ]);
}

export function chainHash(e: StoredEventFields, prevHash: string): string {
  return createHash('sha256').update(canonicalText(e, prevHash)).digest('hex');
}
