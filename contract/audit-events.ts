import { z } from 'zod';

/**
 * The audit log of access to patient data as an organization's administrators read it
 * (GET /v1/organizations/{id}/audit_events). Ids only: no patient text, file name or query string is ever kept.
 */
export const AUDIT_ACTIONS = ['read', 'create', 'update', 'delete', 'export', 'execute'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an event is about. A recording, transcript or document is named by its consultation's id (plus related ids). */
export const AUDIT_RESOURCE_TYPES = [
  'consultation_session',
  'recording',
  'transcript',
  'generated_document',
  'consultation_feedback',
  'document_feedback',
  'dictation',
  'generation',
  'assistant',
  'document_example',
  'account',
  'research_space',
  'research_patient',
  'research_patient_file',
  'screening',
  'screening_result',
  'audit_log',
  'admin_command',
  'ai_engine',
  'record_system',
  'organization_settings',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

export const AUDIT_ACTOR_KINDS = ['user', 'anonymous', 'signed_link', 'admin_cli'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * How a request ended: answered below 400, answered 400 or above, or the client closed the connection before the
 * answer was complete (the request may still have been carried out; the status is the one being sent, if any).
 */
/** `partial`: part of what was asked was done (a 207 answer: some documents filed in the record, the rest refused). */
export const AUDIT_OUTCOMES = ['success', 'partial', 'failure', 'client_disconnected'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Ids as the log keeps them: UUIDs, document keys, version numbers. Anything else is never stored. */
export const AUDIT_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const auditEventSchema = z.object({
  id: z.string(),
  occurred_at: z.string(),
  actor: z.object({ kind: z.enum(AUDIT_ACTOR_KINDS), user_id: z.string().nullable(), name: z.string().nullable() }),
  action: z.enum(AUDIT_ACTIONS),
  resource_type: z.enum(AUDIT_RESOURCE_TYPES),
  resource_id: z.string().nullable(),
  related_ids: z.record(z.string(), z.string()),
  outcome: z.enum(AUDIT_OUTCOMES),
  status_code: z.number().int().nullable(),
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditEventsEnvelope = z.object({ audit_events: z.array(auditEventSchema), next_cursor: z.string().nullable() });
export type AuditEventsPage = z.infer<typeof auditEventsEnvelope>;

/** The filters of the list and of the NDJSON download; `from` and `to` are instants (`to` excluded). */
export const auditEventsFilter = z
  .object({
    member: z.uuid({ error: 'invalid_id' }).optional(),
    resource_type: z.enum(AUDIT_RESOURCE_TYPES, { error: 'invalid_resource_type' }).optional(),
    resource_id: z.string().trim().regex(AUDIT_ID_PATTERN, { error: 'invalid_id' }).optional(),
    from: z.iso.datetime({ offset: true, error: 'invalid_date' }).optional(),
    to: z.iso.datetime({ offset: true, error: 'invalid_date' }).optional(),
  })
  .strict();
export type AuditEventsFilter = z.infer<typeof auditEventsFilter>;

export const auditEventsQuery = auditEventsFilter
  .extend({
    /** The id of the last event of the previous page: the next page holds older events. */
    cursor: z
      .string()
      .regex(/^\d{1,15}$/, { error: 'invalid_cursor' })
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
