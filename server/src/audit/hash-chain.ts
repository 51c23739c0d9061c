/**
 * The audit log's hash chain. Each row's hash covers a canonical text of its own fields and the previous row's
 * hash, so changing, removing or reordering any row breaks every link after it. The text is a JSON array in a
 * fixed order (related ids as sorted pairs), so the same row always gives the same hash whichever database engine
 * stored it.
 *
 * Two versions, kept per row (`hash_version`):
 * - 1, plain SHA-256: events written before the chain had a key. Anyone who can write the table could recompute
 *   these, so they are trusted only as far as a keyed event after them vouches for them (audit-store.ts).
 * - 2, HMAC-SHA-256 under the audit key (audit-key.ts), which is kept outside the database: without it a changed
 *   or removed event cannot be hidden by recomputing the hashes after it. The text also holds the row's id (given
 *   in order by the writer, so ids have no gaps) and the key's id.
 */
import { createHash, createHmac } from 'node:crypto';
import type { AuditAction, AuditActorKind, AuditOutcome, AuditResourceType } from '../../../contract/audit-events.js';
import type { AuditKey } from './audit-key.js';

/** The "previous hash" of the first row. */
export const GENESIS_HASH = '0'.repeat(64);
export const LEGACY_HASH_VERSION = 1;
export const KEYED_HASH_VERSION = 2;
/** Part of the canonical text, so a text of one version is never read with the rules of another. */
const LEGACY_FORMAT = 'audit_event/v1';
const KEYED_FORMAT = 'audit_event/v2';

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

function fieldsOf(e: StoredEventFields): unknown[] {
  return [
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
  ];
}

/** Version 1: exactly the text the first version of the log hashed. */
export function legacyCanonicalText(e: StoredEventFields, prevHash: string): string {
  return JSON.stringify([LEGACY_FORMAT, ...fieldsOf(e), prevHash]);
}

export function legacyHash(e: StoredEventFields, prevHash: string): string {
  return createHash('sha256').update(legacyCanonicalText(e, prevHash)).digest('hex');
}

/** Version 2: the row's place (its id, the previous hash) and the key that sealed it are part of the text. */
export function keyedCanonicalText(e: StoredEventFields, place: { id: number; prevHash: string }, keyId: string): string {
  return JSON.stringify([KEYED_FORMAT, place.id, keyId, ...fieldsOf(e), place.prevHash]);
}

export function keyedHash(e: StoredEventFields, place: { id: number; prevHash: string }, key: AuditKey): string {
  return createHmac('sha256', key.chainKey)
    .update(keyedCanonicalText(e, place, key.id))
    .digest('hex');
}
