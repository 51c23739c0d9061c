import { z } from 'zod';

/** The one error shape every API failure answers with (ARCHITECTURE.md, "API conventions"). */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    /** On server errors (5xx): the request's id (also in the X-Request-Id header), for the user to quote to support. */
    request_id: z.string().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Codes the web app translates; the server's message is only the fallback. */
export const errorCodes = [
  'invalid_request',
  'invalid_json',
  'invalid_credentials',
  'unauthorized',
  'forbidden',
  'not_found',
  'invitation_invalid',
  'invitation_expired',
  'invitation_already_responded',
  'invitation_email_mismatch',
  'invalid_or_expired_token',
  'email_not_confirmed',
  'token_already_used',
  'token_claims_missing',
  'token_lifetime_too_long',
  'invalid_current_password',
  'only_admin',
  'integration_not_configured',
  'too_many_requests',
  'records_being_read',
  'payload_too_large',
  'unsupported_media_type',
  'active_session_exists',
  'session_finished',
  'unsupported_audio_type',
  'audio_order_conflict',
  'session_id_taken',
  'recording_elsewhere',
  'device_required',
  'invalid_characters',
  'invalid_multipart',
  'conflict',
  'audio_missing',
  'audio_not_kept',
  'audio_deleted',
  'consultation_archived',
  'no_documents',
  'fhir_not_configured',
  'fhir_push_failed',
  'fhir_push_in_progress',
  'consultation_deleted',
  'insufficient_credits',
  'custom_request_pending',
  'file_content_mismatch',
  'generation_failed',
  // Why a document's engine did not finish it (a failed version's `error_code`, POST /generate's 502).
  'engine_length_limit',
  'engine_content_filter',
  'engine_stopped_early',
  'engine_timed_out',
  'change_not_applied',
  'server_admin_only',
  'locked_by_environment',
  'saved_key_unusable',
  'internal_error',
] as const;
export type ErrorCode = (typeof errorCodes)[number];
