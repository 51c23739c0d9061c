/**
 * Reading an organization's audit log: the events of its members (as members when they acted), newest first,
 * filtered by member, record and time. A record id matches the event's own id or any of its related ids, so a
 * consultation's id finds its recording, transcript and documents too.
 */
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEventsFilter, AuditEventView } from '../../../../../contract/audit-events.js';
import type { Database } from '../../../db/client.js';
import { auditEvents, users } from '../../../db/schema.js';

export type AuditEventRow = typeof auditEvents.$inferSelect;

function conditions(organizationId: string, f: AuditEventsFilter, before?: number): SQL | undefined {
  return and(
    eq(auditEvents.actorOrganizationId, organizationId),
    f.member ? eq(auditEvents.actorUserId, f.member) : undefined,
    f.resource_type ? eq(auditEvents.resourceType, f.resource_type) : undefined,
    f.resource_id
      ? or(
          eq(auditEvents.resourceId, f.resource_id),
          sql`exists (select 1 from jsonb_each_text(${auditEvents.extraIds}) as related(name, id) where related.id = ${f.resource_id})`,
        )
      : undefined,
    f.from ? gte(auditEvents.occurredAt, new Date(f.from)) : undefined,
    f.to ? lt(auditEvents.occurredAt, new Date(f.to)) : undefined,
    before !== undefined ? lt(auditEvents.id, before) : undefined,
  );
}

export async function listAuditEvents(
  db: Database,
  organizationId: string,
  filter: AuditEventsFilter,
  page: { cursor?: string; limit: number },
): Promise<{ audit_events: AuditEventView[]; next_cursor: string | null }> {
  const rows = await db
    .select({ event: auditEvents, name: users.name })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(conditions(organizationId, filter, page.cursor ? Number(page.cursor) : undefined))
    .orderBy(desc(auditEvents.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  return {
    audit_events: shown.map((r) => view(r.event, r.name)),
    next_cursor: rows.length > page.limit ? String(shown.at(-1)!.event.id) : null,
  };
}

/** Every matching event, newest first, a page at a time (the NDJSON download). */
export async function* allAuditEvents(db: Database, organizationId: string, filter: AuditEventsFilter): AsyncGenerator<AuditEventRow> {
  let before: number | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(conditions(organizationId, filter, before))
      .orderBy(desc(auditEvents.id))
      .limit(500);
    yield* rows;
    if (rows.length < 500) return;
    before = rows.at(-1)!.id;
  }
}

function view(e: AuditEventRow, name: string | null): AuditEventView {
  return {
    id: String(e.id),
    occurred_at: e.occurredAt.toISOString(),
    actor: { kind: e.actorKind as AuditEventView['actor']['kind'], user_id: e.actorUserId, name },
    action: e.action as AuditEventView['action'],
    resource_type: e.resourceType as AuditEventView['resource_type'],
    resource_id: e.resourceId,
    related_ids: e.extraIds,
    outcome: e.outcome as AuditEventView['outcome'],
    status_code: e.statusCode,
    client_address: e.clientAddress,
    user_agent: e.userAgent,
  };
}
