/**
 * What a consultation past its retention window still allows. Its audio is gone (or about to go: the sweep runs
 * every few seconds) and nothing in it can change any more; what happens to its text depends on the clinician's
 * `save_text_data`, read when the window ends (the sweep, jobs/retention.ts, archives or deletes it then):
 * - text kept: reads answer the text (status `archived`, read-only); changes answer 409 `consultation_archived`;
 *   the audio answers 410 `audio_deleted`;
 * - text not kept: every call answers 410 `consultation_deleted` until the sweep removes the row, then 404 like
 *   any id that does not exist.
 * Only the owner gets these answers: the caller looked the consultation up with its owner in the query, so
 * another user's id never reaches here and answers a plain 404.
 */
import type { Database } from '../../db/client.js';
import { findUserById } from '../../auth/users.js';
import { DomainError } from '../../errors/domain-error.js';
import type { SessionRow } from './repository.js';

/** `change`: anything that writes; `read`: the text, documents and versions; `audio`: the recording. */
export type SessionAccess = 'change' | 'read' | 'audio';

export function isPastRetention(s: Pick<SessionRow, 'status' | 'expiresAt'>, now = Date.now()): boolean {
  return s.status === 'archived' || (s.status === 'finished' && s.expiresAt !== null && s.expiresAt.getTime() <= now);
}

/** When the audio went: the end of the window (the sweep deletes it within seconds of it). */
export const audioDeletedAt = (s: Pick<SessionRow, 'status' | 'expiresAt'>): Date | null => (isPastRetention(s) ? s.expiresAt : null);

export const consultationDeleted = () => new DomainError(410, 'consultation_deleted', 'This consultation was deleted after the retention period');

/** Throws unless `access` is allowed on an owned consultation past its window. */
export async function checkPastRetention(db: Database, session: SessionRow, access: SessionAccess): Promise<void> {
  // Not archived yet: the sweep has not reached it, and the clinician's setting says what it will do.
  if (session.status !== 'archived' && !(await findUserById(db, session.userId))?.saveTextData) throw consultationDeleted();
  const day = audioDeletedAt(session)?.toISOString().slice(0, 10);
  if (access === 'audio')
    throw new DomainError(410, 'audio_deleted', `The audio of this consultation was deleted after the retention period${day ? ` (${day})` : ''}`);
  if (access === 'change') throw new DomainError(409, 'consultation_archived', 'This consultation is kept as text only and can no longer be changed');
}
