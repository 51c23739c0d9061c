import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { ErrorCode } from '../../../contract/errors';
import { ApiFailureError, type ApiFailure } from '../../api/client';

const connection = msg`Connection problems: the server cannot be reached. Check your internet connection.`;
const overloaded = msg`The servers are a bit overloaded. Please try again.`;
const generic = msg`Something went wrong. Please try again.`;

/** Every code the server answers with (contract/errors.ts) has its own sentence: the type makes this list whole. */
const byCode: Record<ErrorCode, MessageDescriptor> = {
  invalid_request: msg`Something entered is not valid. Check what you typed and try again.`,
  invalid_json: msg`The server could not read what the app sent. Reload the page and try again.`,
  unauthorized: msg`Your session has expired`,
  not_found: msg`This no longer exists, or the address is wrong.`,
  records_being_read: msg`Some records are scanned pages still being read. Screen again when they are ready.`,
  unsupported_media_type: msg`This kind of file is not accepted.`,
  active_session_exists: msg`A consultation is already under way. Go back to it or finish it first.`,
  session_finished: msg`This consultation has already ended.`,
  unsupported_audio_type: msg`This audio format is not supported.`,
  audio_order_conflict: msg`A part of this recording arrived twice with different sound. The recording is kept on this device; contact support.`,
  session_id_taken: msg`This consultation already exists on the server.`,
  recording_elsewhere: msg`This consultation is being recorded on another device.`,
  device_required: msg`This device could not be recognised. Reload the page and try again.`,
  conflict: msg`This was changed at the same time elsewhere. Reload the page and try again.`,
  audio_missing: msg`The sound of this part of the recording did not arrive.`,
  generation_failed: msg`The AI engine could not write the document. Nothing was charged. Write again.`,
  engine_length_limit: msg`The AI engine stopped before finishing the document (it reached its length limit). Nothing was charged. Write again, or shorten the request.`,
  engine_content_filter: msg`The AI engine stopped before finishing the document (its content filter stopped it). Nothing was charged. Write again.`,
  engine_stopped_early: msg`The AI engine stopped before finishing the document (its answer broke off). Nothing was charged. Write again.`,
  engine_timed_out: msg`The AI engine stopped before finishing the document (it took too long to answer). Nothing was charged. Write again.`,
  internal_error: overloaded,
  invalid_credentials: msg`Invalid credentials`,
  invitation_invalid: msg`This invitation does not exist`,
  invitation_expired: msg`This invitation has expired. Ask your organization's administrator for a new one.`,
  invitation_already_responded: msg`You have already responded to this invitation`,
  invitation_email_mismatch: msg`This invitation was sent to another e-mail address`,
  invalid_or_expired_token: msg`This link is invalid or has expired`,
  email_not_confirmed: msg`This account's e-mail address is not confirmed yet: open the confirmation mail, or reset the password, then sign in again from the record system`,
  token_already_used: msg`This sign-in link has already been used. Open the app again from your record system.`,
  token_claims_missing: msg`Your record system made this sign-in link incorrectly. Ask its administrator to check the integration.`,
  token_lifetime_too_long: msg`Your record system made this sign-in link incorrectly. Ask its administrator to check the integration.`,
  invalid_current_password: msg`The current password is not correct`,
  too_many_requests: msg`Too many attempts. Wait a few minutes and try again.`,
  integration_not_configured: msg`Sign-in from other systems is not configured`,
  only_admin: msg`You can't leave the organization (only admin)`,
  forbidden: msg`Only an administrator of the organization can do this.`,
  audio_not_kept: msg`This audio is not kept: your consultation data storage settings remove it once transcribed.`,
  audio_deleted: msg`The audio of this consultation was deleted after the retention period.`,
  consultation_archived: msg`This consultation is kept as text only and cannot be changed.`,
  consultation_deleted: msg`This consultation was deleted after the retention period.`,
  no_documents: msg`This consultation has no finished document to send to the record yet.`,
  fhir_not_configured: msg`Your organization has not set up a record system to send documents to.`,
  fhir_push_failed: msg`The record system did not accept the documents.`,
  fhir_push_in_progress: msg`These documents are already being sent to the record.`,
  invalid_characters: msg`The text contains a character that cannot be saved (a null character). Remove it and try again.`,
  invalid_multipart: msg`The file did not arrive complete. Check your connection and try again.`,
  payload_too_large: msg`The file is too large.`,
  server_admin_only: msg`Only an administrator of this server can do this.`,
  saved_key_unusable: msg`The saved API key cannot be used on this server any more: enter it again.`,
  locked_by_environment: msg`The server's environment settings choose this engine; change it there.`,
  custom_request_pending: msg`A request sent to support is waiting for approval. You can make a new one once it is approved.`,
  file_content_mismatch: msg`This file is not the kind of file its name says. Choose a PDF, Word, text or picture file.`,
  change_not_applied: msg`This change cannot be made without an AI engine, and nothing was changed. Edit the text yourself, or ask in one of these forms: “add … to the plan”, “remove the sentence about …”, “replace … with …”.`,
  version_not_latest: msg`A newer version of this document exists. Read it, then sign that one.`,
  document_not_finished: msg`Only a finished document can be signed. Wait until it is written, or write it again.`,
  consent_required: msg`Your organization asks for the patient's consent before recording. Start the recording again to ask for it.`,
  consent_method_mismatch: msg`Your organization asks for the patient's consent another way. Reload the page and try again.`,
  terms_to_check: msg`Check the terms marked as not in the transcript or your inputs before signing.`,
  sign_off_required: msg`Your organization sends documents to the record only once they are signed. Read and sign each document first.`,
  insufficient_credits: msg`No credits left. More credits are bought through support; this consultation is kept.`,
};

/** The sentence for an error code the server stored (a failed document's `error_code`); `fallback` for an unknown one. */
export function describeCode(i18n: I18n, code: string | null | undefined, fallback: MessageDescriptor = generic): string {
  const known = code ? (byCode as Record<string, MessageDescriptor | undefined>)[code] : undefined;
  return i18n._(known ?? fallback);
}

/** The user-facing sentence for any failed call, in the active language. */
export function describeFailure(i18n: I18n, err: unknown, fallback: MessageDescriptor = generic): string {
  const failure: ApiFailure | undefined = err instanceof ApiFailureError ? err.failure : undefined;
  if (!failure || failure.kind === 'network' || failure.kind === 'timeout') return i18n._(failure ? connection : fallback);
  const known = (byCode as Record<string, MessageDescriptor | undefined>)[failure.code];
  // A code this app does not know, or an answer from something in front of the server (a proxy): by its status.
  if (known) return i18n._(known);
  if (failure.status === 413) return i18n._(byCode.payload_too_large);
  if (failure.status === 415) return i18n._(byCode.unsupported_media_type);
  if (failure.status === 404) return i18n._(byCode.not_found);
  if (failure.status === 429 || failure.status >= 500) return i18n._(overloaded);
  if (failure.status === 400 || failure.status === 422) return i18n._(byCode.invalid_request);
  return i18n._(fallback);
}

/** What a screen opened from a link says when the link's token is refused: nothing was typed, the link is to blame. */
export const linkNotValid = msg`This link is not valid or has expired.`;

/**
 * True when the server refused the token a link carried: garbled (cut short, a character changed by a mail
 * program), unknown or expired. Such screens say so and what to do next, instead of blaming an input never typed.
 */
export function isBadLink(err: unknown): boolean {
  if (!(err instanceof ApiFailureError) || err.failure.kind !== 'http') return false;
  const { code, fields } = err.failure;
  return code === 'invalid_or_expired_token' || code === 'invitation_invalid' || code === 'not_found' || (code === 'invalid_request' && 'token' in fields);
}

/** Server field errors keyed by the form's own field names (the API's `user.email` → `email`). */
export function fieldCodes(err: unknown): Record<string, string> {
  if (!(err instanceof ApiFailureError) || err.failure.kind !== 'http') return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(err.failure.fields)) out[k.replace(/^user\./, '')] = v;
  return out;
}
