import type { AuditEventsFilter, AuditEventsPage } from '../../contract/audit-events';
import { call } from './client';
import { api } from './instance';

export type { AuditAction, AuditEventsFilter, AuditEventView, AuditResourceType } from '../../contract/audit-events';

const base = (organizationId: string) => `v1/organizations/${organizationId}/audit_events`;

/** Only the filters that are set: an empty value would be refused as an invalid id or date. */
function searchParams(filter: AuditEventsFilter & { cursor?: string }): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

/** The organization's audit log of access to patient data (administrators only). */
export const auditEventsApi = {
  list: (organizationId: string, filter: AuditEventsFilter, cursor?: string) =>
    call(() =>
      api()
        .get(base(organizationId), { searchParams: searchParams({ ...filter, cursor }) })
        .json<AuditEventsPage>(),
    ),
  /** The whole filtered log as FHIR R4 AuditEvent NDJSON. */
  download: (organizationId: string, filter: AuditEventsFilter) =>
    call(() =>
      api()
        .get(`${base(organizationId)}.ndjson`, { searchParams: searchParams(filter) })
        .blob(),
    ),
};
