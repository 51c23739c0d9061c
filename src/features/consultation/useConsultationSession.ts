import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { consultationsApi, type SessionDetail, type SessionProgress } from '../../api/consultations';
import { appDb, type CachedSession } from '../../offline/db';
import { awaitedOnDevice } from '../recording/awaited-parts';
import { startWaiting } from '../../offline/session-ops';
import { isGone, sessionLoadProblem, type SessionLoadProblem } from './session-load-problem';

const POLL_MS = 3000;

/** How the server names the transcript this device holds (first 16 hex digits of its SHA-256); none without Web Crypto. */
export async function transcriptPrefix(text: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Copies what the server says into the local cache, keeping the local part counter. */
export async function cacheSession(s: SessionDetail): Promise<void> {
  await keep(s, s.transcription, Math.max(0, ...s.audios.map((a) => a.order + 1)), s.audios.length);
}

/**
 * The same from a poll's answer: the transcript is what this device held, then what came (or the whole text, from
 * 0). Any other starting point is not an answer to the question asked: it is left, and the next poll asks again.
 */
async function cacheProgress(p: SessionProgress, held: string): Promise<void> {
  const { from, text } = p.transcription;
  if (from !== 0 && from !== held.length) return;
  await keep(p, held.slice(0, from) + text, p.next_order, p.parts);
}

async function keep(s: SessionDetail | SessionProgress, transcription: string, nextOrder: number, partsStored: number): Promise<void> {
  const db = appDb();
  const previous = await db.sessions.get(s.id);
  await db.sessions.put({
    id: s.id,
    status: s.status,
    consultation_type_id: s.consultation_type_id,
    show_transcription: s.show_transcription,
    recording_state: s.recording_state,
    created_at: s.created_at,
    finished_at: s.finished_at,
    expires_at: s.expires_at,
    read_only: s.read_only,
    audio_deleted_at: s.audio_deleted_at,
    patient_label: s.patient_label,
    language: s.language,
    transcription,
    transcription_status: s.transcription_status,
    transcription_engines: s.transcription_engines,
    user_inputs: s.user_inputs,
    nextOrder: Math.max(previous?.nextOrder ?? 0, nextOrder),
    recorded_ms: Math.max(previous?.recorded_ms ?? 0, s.recorded_ms ?? 0),
    recorder: s.recorder,
    expected_parts: s.expected_parts,
    parts_stored: partsStored,
    awaited: awaitedOnDevice(s.awaited_parts),
    consent: s.consent,
    cachedAt: Date.now(),
  });
}

/**
 * The consultation as the screen shows it: read from the local cache (so it survives reloads and lost
 * connections) and refreshed from the server every few seconds while it is recording or being transcribed.
 * `problem` says why the last refresh failed; a consultation the server no longer has is removed from the cache.
 */
export function useConsultationSession(id: string): {
  session: CachedSession | undefined;
  problem: SessionLoadProblem | undefined;
  refresh: () => Promise<void>;
} {
  const session = useLiveQuery(() => appDb().sessions.get(id), [id]);
  const [problem, setProblem] = useState<SessionLoadProblem>();

  // The screen's first question goes at once, without waiting for the device's database (on a first visit it is
  // being created): the consultation from the start of its transcript. Later polls name the text they hold.
  const opening = useRef(true);
  // Refreshes can overlap (a slow answer, then the next poll): an answer is kept only when no later question's
  // answer was kept before it, so an older state never overwrites a newer one.
  const asked = useRef(0);
  const kept = useRef(0);

  const refresh = useCallback(async () => {
    const question = ++asked.current;
    // A failure leaves no answer (and never an unhandled rejection, when a consultation started offline needs none).
    const early = opening.current ? consultationsApi.progress(id, undefined).catch(() => undefined) : undefined;
    opening.current = false;
    // Started with no network: the server has not heard of it yet, so there is nothing to ask it. (The queued start
    // is the truth: the service worker may have sent it without touching this cache.)
    if (await startWaiting(id)) return;
    try {
      const held = await appDb().sessions.get(id);
      // The first answer is used unless it failed: then the question is asked again, as any refresh asks it (the
      // uploader may have sent a start made offline after the first question left, which the server then did not know).
      const first = await early;
      let store: () => Promise<void>;
      if (first) {
        store = () => cacheProgress(first.consultation_progress, held?.transcription ?? '');
      } else if (held?.transcription !== undefined) {
        // Once the whole session is here, each poll brings only what changed in the transcript (and no list of parts).
        const prefix = await transcriptPrefix(held.transcription);
        const known = prefix ? { from: held.transcription.length, prefix } : undefined;
        const { consultation_progress: progress } = await consultationsApi.progress(id, known);
        store = () => cacheProgress(progress, held.transcription ?? '');
      } else {
        const { consultation_session: whole } = await consultationsApi.get(id);
        store = () => cacheSession(whole);
      }
      // One writer at a time (a read-write transaction on the table), so the check and the write go together.
      const db = appDb();
      await db.transaction('rw', db.sessions, async () => {
        if (question < kept.current) return;
        kept.current = question;
        await store();
      });
      setProblem(undefined);
    } catch (err) {
      const seen =
        (await appDb()
          .sessions.get(id)
          .catch(() => undefined)) !== undefined;
      const next = sessionLoadProblem(err, seen);
      // Deleted on the server (its retention period is over): its text must not outlive it on this device.
      if (isGone(next))
        await appDb()
          .sessions.delete(id)
          .catch(() => undefined);
      // Two refreshes can overlap (mount, then the cache read): the later one no longer finds the copy the first
      // deleted, yet the consultation is still one that was deleted, not one never seen.
      setProblem((previous) => (previous === 'deleted' && next === 'not_found' ? previous : next));
    }
  }, [id]);

  const gone = isGone(problem);
  const busy = !gone && (!session || session.status === 'active' || session.transcription_status === 'processing');
  useEffect(() => {
    if (gone) return;
    void refresh();
    if (!busy) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh, busy, gone]);

  return { session: gone ? undefined : session, problem, refresh };
}
