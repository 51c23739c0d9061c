/**
 * One audit event as a FHIR R4 AuditEvent, shaped after IHE Basic Audit Log Patterns (BALP): the event type from
 * DICOM (110110 Patient Record for access to patient data, 110106 Export, 110101 Audit Log Used, 110100
 * Application Activity for admin commands), the RESTful interaction as subtype, the C/R/U/D/E action, the outcome
 * (0 success, 4 refused, 8 failed; for a client that left early, after the status being sent, 4 if none), the
 * user as requesting agent with their network address (for a signed address, its owner beside it), this server as
 * observer, and each id as an entity (a reference where FHIR has a matching resource, always an identifier).
 */
import type { AuditAction } from '../../../contract/audit-events.js';
import type { auditEvents } from '../db/schema.js';

type Row = typeof auditEvents.$inferSelect;
type Coding = { system: string; code: string; display?: string };
type Reference = { reference?: string; identifier?: { system: string; value: string }; display?: string };

export type FhirAuditEvent = {
  resourceType: 'AuditEvent';
  id: string;
  type: Coding;
  subtype: Coding[];
  action: 'C' | 'R' | 'U' | 'D' | 'E';
  recorded: string;
  outcome: '0' | '4' | '8';
  outcomeDesc?: string;
  agent: { type?: { coding: Coding[] }; who: Reference; requestor: boolean; network?: { address: string; type: '1' | '2' } }[];
  source: { site?: string; observer: Reference; type: Coding[] };
  entity?: { what: Reference; type: Coding; role?: Coding; name?: string }[];
};

const DCM = 'http://dicom.nema.org/resources/ontology/DCM';
const INTERACTION = 'http://hl7.org/fhir/restful-interaction';
const ENTITY_TYPE = 'http://terminology.hl7.org/CodeSystem/audit-entity-type';
const OBJECT_ROLE = 'http://terminology.hl7.org/CodeSystem/object-role';
/** Identifiers of this product's own records: urn:consultation-notes:<kind>. */
export const idSystem = (kind: string) => `urn:consultation-notes:${kind}`;

const ACTION_CODE: Record<AuditAction, FhirAuditEvent['action']> = { create: 'C', read: 'R', update: 'U', delete: 'D', export: 'R', execute: 'E' };

/** The FHIR resource an id names, where there is one (recordings, transcripts and documents go by their consultation). */
const FHIR_TYPE: Record<string, string> = {
  consultation_session: 'Encounter',
  recording: 'Encounter',
  transcript: 'Encounter',
  generated_document: 'Encounter',
  consultation_feedback: 'Encounter',
  document_feedback: 'Encounter',
  research_patient: 'Patient',
  patient: 'Patient',
  research_patient_file: 'DocumentReference',
  audio: 'Media',
  trial: 'ResearchStudy',
  account: 'Practitioner',
  member: 'Practitioner',
  audit_log: 'Organization',
  record_system: 'Organization',
  organization_settings: 'Organization',
};
const PATIENTS = new Set(['research_patient', 'patient']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function eventType(row: Row): Coding {
  if (row.resourceType === 'audit_log') return { system: DCM, code: '110101', display: 'Audit Log Used' };
  if (
    row.resourceType === 'admin_command' ||
    row.resourceType === 'ai_engine' ||
    row.resourceType === 'record_system' ||
    row.resourceType === 'organization_settings'
  )
    return { system: DCM, code: '110100', display: 'Application Activity' };
  if (row.action === 'export') return { system: DCM, code: '110106', display: 'Export' };
  return { system: DCM, code: '110110', display: 'Patient Record' };
}

function interaction(row: Row): Coding {
  const code =
    row.action === 'read' ? (row.resourceId ? 'read' : 'search-type') : row.action === 'export' || row.action === 'execute' ? 'operation' : row.action;
  return { system: INTERACTION, code };
}

function outcome(row: Row): FhirAuditEvent['outcome'] {
  if (row.outcome === 'success') return '0';
  if (row.outcome === 'partial') return '4';
  // The client left before the answer was complete: what was being answered, if anything, or a minor failure.
  if (row.outcome === 'client_disconnected') {
    if (row.statusCode === null) return '4';
    if (row.statusCode < 400) return '0';
  }
  return row.statusCode !== null && row.statusCode < 500 ? '4' : '8';
}

function outcomeDescription(row: Row): string | undefined {
  const status = row.statusCode !== null ? `HTTP ${row.statusCode}` : undefined;
  if (row.outcome === 'partial') return `partly done${status ? ` (${status})` : ''}`;
  if (row.outcome !== 'client_disconnected') return status;
  return `client disconnected before the answer was complete${status ? ` (${status} being sent)` : ''}`;
}

function requestor(row: Row): FhirAuditEvent['agent'][number] {
  const network = row.clientAddress && row.clientAddress !== 'local' ? { address: row.clientAddress, type: '2' as const } : undefined;
  const who: Reference =
    row.actorKind === 'user' && row.actorUserId
      ? { reference: `Practitioner/${row.actorUserId}` }
      : {
          display:
            row.actorKind === 'admin_cli' ? 'admin-cli' : row.actorKind === 'signed_link' ? 'holder of a signed recording address' : 'unauthenticated client',
        };
  return { who, requestor: true, ...(network ? { network } : {}) };
}

function entity(kind: string, id: string): NonNullable<FhirAuditEvent['entity']>[number] {
  const fhirType = FHIR_TYPE[kind];
  const what: Reference = { identifier: { system: idSystem(kind), value: id } };
  if (fhirType && UUID.test(id)) what.reference = `${fhirType}/${id}`;
  return PATIENTS.has(kind)
    ? { what, type: { system: ENTITY_TYPE, code: '1', display: 'Person' }, role: { system: OBJECT_ROLE, code: '1', display: 'Patient' }, name: kind }
    : { what, type: { system: ENTITY_TYPE, code: '2', display: 'System Object' }, name: kind };
}

export function toFhirAuditEvent(row: Row, observer: { site: string; url: string }): FhirAuditEvent {
  const agents = [requestor(row)];
  // A signed address is made at its owner's request: the owner is named beside the anonymous holder who used it.
  if (row.actorKind === 'signed_link' && row.actorUserId) agents.push({ who: { reference: `Practitioner/${row.actorUserId}` }, requestor: false });
  if (row.actorOrganizationId) agents.push({ who: { reference: `Organization/${row.actorOrganizationId}` }, requestor: false });
  const entities = [
    ...(row.resourceId ? [entity(row.resourceType, row.resourceId)] : []),
    ...Object.entries(row.extraIds).map(([kind, id]) => entity(kind, id)),
  ];
  return {
    resourceType: 'AuditEvent',
    id: String(row.id),
    type: eventType(row),
    subtype: [interaction(row)],
    action: ACTION_CODE[row.action as AuditAction] ?? 'E',
    recorded: row.occurredAt.toISOString(),
    outcome: outcome(row),
    ...(outcomeDescription(row) ? { outcomeDesc: outcomeDescription(row) } : {}),
    agent: agents,
    source: {
      site: observer.site,
      observer: { display: 'consultation-notes API', identifier: { system: 'urn:ietf:rfc:3986', value: observer.url } },
      type: [{ system: 'http://terminology.hl7.org/CodeSystem/security-source-type', code: '4', display: 'Application Server' }],
    },
    ...(entities.length ? { entity: entities } : {}),
  };
}
