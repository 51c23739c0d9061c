import { consultationsApi } from '../../api/consultations';
import { ApiFailureError } from '../../api/client';
import type { ConsentRule } from '../../api/organizations';
import { STORAGE_KEYS } from '../../offline/storage-keys';
import { readStoredRecord, writeStoredRecord } from '../../offline/stored-records';
import { cacheSession } from '../consultation/useConsultationSession';

type Given = { method: 'clinician' | 'patient'; given_at: string };

/**
 * Consents given on this device that the server has not acknowledged yet (given offline): kept until sent, so the
 * recording that followed them is never held up, and so the consultation's record gets them when the connection
 * is back. Ids and times only.
 */
export function pendingConsent(sessionId: string): Given | undefined {
  return readStoredRecord<Given>(STORAGE_KEYS.pendingConsents)[sessionId];
}

function setPending(sessionId: string, given: Given | undefined) {
  const all = readStoredRecord<Given>(STORAGE_KEYS.pendingConsents);
  if (given) all[sessionId] = given;
  else delete all[sessionId];
  writeStoredRecord(STORAGE_KEYS.pendingConsents, all);
}

/** The organization's rule as last seen in a consultation, for one begun on this device before the server knew it. */
export function lastKnownRule(userId: string): ConsentRule {
  return readStoredRecord<ConsentRule>(STORAGE_KEYS.consentRules)[userId] ?? 'off';
}

export function rememberRule(userId: string, rule: ConsentRule) {
  const all = readStoredRecord<ConsentRule>(STORAGE_KEYS.consentRules);
  if (all[userId] === rule) return;
  all[userId] = rule;
  writeStoredRecord(STORAGE_KEYS.consentRules, all);
}

/** Sends a consent; offline (or the server unreachable) it waits on this device and goes with `sendPendingConsents`. */
export async function giveConsent(sessionId: string, method: Given['method']): Promise<void> {
  const given = { method, given_at: new Date().toISOString() };
  setPending(sessionId, given);
  await sendOne(sessionId, given);
}

async function sendOne(sessionId: string, given: Given) {
  try {
    await cacheSession((await consultationsApi.giveConsent(sessionId, given)).consultation_session);
    setPending(sessionId, undefined);
  } catch (err) {
    // Kept and sent again on every other answer: a consultation begun offline is not on the server yet (404), and a
    // consent must never be lost. Only a request the server can never take (400) or a consultation deleted (410) ends it.
    if (err instanceof ApiFailureError && err.failure.kind === 'http' && (err.failure.status === 400 || err.failure.status === 410))
      setPending(sessionId, undefined);
  }
}

export async function sendPendingConsents(): Promise<void> {
  for (const [id, given] of Object.entries(readStoredRecord<Given>(STORAGE_KEYS.pendingConsents))) await sendOne(id, given);
}
