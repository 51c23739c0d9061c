/**
 * Asking the server whether this device may record (one recorder per consultation, see the server's
 * recording-lease.ts). With no network the answer is `unknown` and the device records anyway: audio is never
 * refused for want of a connection, and the parts are numbered after everything this device knows of.
 */
import { consultationsApi } from '../../api/consultations';
import { ApiFailureError } from '../../api/client';

export type Claim = { outcome: 'granted'; nextOrder: number } | { outcome: 'elsewhere' } | { outcome: 'waiting' } | { outcome: 'unknown' };

const HANDOVER_POLL_MS = 2000;
/** Longer than the server's lease (20 s): a recorder that does not answer is replaced by then. */
export const HANDOVER_TIMEOUT_MS = 30_000;

export async function claimRecording(sessionId: string, platform: string, opts: { mobile: boolean; takeOver?: boolean; micsInfo?: unknown }): Promise<Claim> {
  try {
    const res = await consultationsApi.recording(sessionId, platform, opts);
    if (res.waiting) return { outcome: 'waiting' };
    return { outcome: 'granted', nextOrder: res.consultation_session.recorder?.next_order ?? 0 };
  } catch (err) {
    if (err instanceof ApiFailureError && err.failure.kind === 'http') {
      if (err.failure.code === 'recording_elsewhere') return { outcome: 'elsewhere' };
      throw err;
    }
    return { outcome: 'unknown' };
  }
}

/** "Record here instead": asks until the other device let go (or its lease lapsed), or gives up after a while. */
export async function takeOverRecording(sessionId: string, platform: string, mobile: boolean, timeoutMs = HANDOVER_TIMEOUT_MS): Promise<Claim> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const claim = await claimRecording(sessionId, platform, { mobile, takeOver: true });
    if (claim.outcome !== 'waiting' || Date.now() >= until) return claim;
    await new Promise((r) => setTimeout(r, HANDOVER_POLL_MS));
  }
}

/**
 * One recorder per browser too: two tabs share the device id, so the server cannot tell them apart; a Web Lock
 * named after the consultation can. Resolves to the lock's release, or undefined when another tab holds it.
 */
export function holdRecordingLock(sessionId: string): Promise<(() => void) | undefined> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return Promise.resolve(() => undefined);
  return new Promise((resolve) => {
    void locks.request(`recording:${sessionId}`, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(undefined);
        return undefined;
      }
      // Held until the page lets go (or closes).
      return new Promise<void>((release) => resolve(() => release()));
    });
  });
}

/** Whether another tab of this browser holds the consultation's recording lock (records it now). */
export async function isRecordingInAnotherTab(sessionId: string): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.query) return false;
  const { held } = await locks.query().catch(() => ({ held: [] as LockInfo[] }));
  return (held ?? []).some((lock) => lock.name === `recording:${sessionId}`);
}
