import { ApiFailureError } from '../../api/client';

/**
 * Why the consultation could not be refreshed from the server. Only `offline` means the connection: a 404 or 410
 * is an answer, and saying "connection problems" then would be false (and the cached copy would never go).
 * - offline: no answer (network error, timeout): the cached copy is shown and kept;
 * - overloaded: 429 or 5xx, try again later;
 * - deleted: the consultation was deleted after its retention period (410 consultation_deleted, or 404 for one
 *   this device had seen: the sweep has removed its row);
 * - not_found: an id the server does not know and this device never saw;
 * - failed: any other refusal.
 */
export type SessionLoadProblem = 'offline' | 'overloaded' | 'deleted' | 'not_found' | 'failed';

export function sessionLoadProblem(err: unknown, seenBefore: boolean): SessionLoadProblem {
  // Not a call's failure (the local cache refused a write, say): not the connection either.
  if (!(err instanceof ApiFailureError)) return 'failed';
  const failure = err.failure;
  if (failure.kind !== 'http') return 'offline';
  if (failure.status === 429 || failure.status >= 500) return 'overloaded';
  if (failure.code === 'consultation_deleted') return 'deleted';
  if (failure.status === 404 || failure.status === 410) return seenBefore ? 'deleted' : 'not_found';
  return 'failed';
}

/** The server will never answer this consultation again: stop asking and forget the cached copy. */
export const isGone = (p: SessionLoadProblem | undefined) => p === 'deleted' || p === 'not_found';
