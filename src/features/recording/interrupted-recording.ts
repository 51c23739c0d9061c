/**
 * Which consultations this browser is recording, in localStorage (`recordings_in_progress`), so that a page that
 * went away mid-recording (reloaded, crashed, closed, or left for another screen) is followed by one that says
 * plainly that recording stopped, and at what time, instead of a silent "Ready".
 *
 * Per consultation: the account, the time recorded so far (rewritten as each half second of audio is saved, so it
 * is the time the kept audio reaches), whether the screen was left inside the app, and when the page was hidden for
 * the last time (a reload or a closed tab says so; a crash does not). Written synchronously, because a page being
 * unloaded runs no promise to its end. Ids and durations only, never patient data. An entry goes when its recording
 * is finished or handed over, when the notice is dismissed, or when the consultation has ended; the 20 most recent
 * are kept.
 *
 * The recorded audio itself never depends on this: it is in IndexedDB (offline/chunk-queue.ts) either way.
 */
import { STORAGE_KEYS } from '../../offline/storage-keys';
import { readStoredRecord, writeStoredRecord, type StoredRecord } from '../../offline/stored-records';

export type RecordingInProgress = {
  userId: string;
  elapsedMs: number;
  /** The clinician left the consultation's screen inside the app (its recorder stopped with it). */
  left?: boolean;
  /** When the page was last hidden (pagehide): its unload, if no page came back. */
  hiddenAt?: number;
  updatedAt: number;
};

/** Why the recording stopped, as far as the next page can tell. */
export type StopCause = 'reloaded' | 'left' | 'closed';

type Stored = StoredRecord<RecordingInProgress>;
const KEEP = 20;
/** A reload starts the new page within seconds of the old one's pagehide. */
const RELOAD_WITHIN_MS = 15_000;

const read = (): Stored => readStoredRecord<RecordingInProgress>(STORAGE_KEYS.recordingsInProgress);

function write(stored: Stored) {
  // Storage full or blocked: the notice is lost, never the audio (which is in IndexedDB).
  writeStoredRecord(STORAGE_KEYS.recordingsInProgress, stored, { count: KEEP, touchedAt: (e) => e.updatedAt });
}

export function recordingInProgress(sessionId: string, userId: string): RecordingInProgress | undefined {
  const entry = read()[sessionId];
  return entry && entry.userId === userId && typeof entry.elapsedMs === 'number' ? entry : undefined;
}

/** This page records (again): the time recorded so far, the page alive. */
export function markRecording(sessionId: string, userId: string, elapsedMs: number): void {
  const stored = read();
  stored[sessionId] = { userId, elapsedMs: Math.round(elapsedMs), updatedAt: Date.now() };
  write(stored);
}

/** Changes an entry only if there is one (a recording that ended meanwhile is not brought back). */
function update(sessionId: string, change: Partial<RecordingInProgress>) {
  const stored = read();
  const entry = stored[sessionId];
  if (!entry) return;
  stored[sessionId] = { ...entry, ...change, updatedAt: Date.now() };
  write(stored);
}

// The hidden mark stays: a save that completes while the page unloads must not make a reload look like a crash.
export const markElapsed = (sessionId: string, elapsedMs: number) => update(sessionId, { elapsedMs: Math.round(elapsedMs) });
export const markLeft = (sessionId: string) => update(sessionId, { left: true });
export const markHidden = (sessionId: string, at = Date.now()) => update(sessionId, { hiddenAt: at });
/** The page came back from the browser's back-forward cache: it was not unloaded after all. */
export const markShown = (sessionId: string) => update(sessionId, { hiddenAt: undefined });

export function forgetRecording(sessionId: string): void {
  const stored = read();
  if (!(sessionId in stored)) return;
  delete stored[sessionId];
  write(stored);
}

/**
 * Why the recorder of an entry stopped: the screen was left in the app; the page reloaded (this document is a reload
 * that began just after the old page was hidden); or the page closed or crashed.
 */
export function stopCause(entry: RecordingInProgress, navigation: { type?: string; startedAt: number } = currentNavigation()): StopCause {
  if (entry.left) return 'left';
  if (navigation.type === 'reload' && entry.hiddenAt !== undefined && Math.abs(navigation.startedAt - entry.hiddenAt) <= RELOAD_WITHIN_MS) return 'reloaded';
  return 'closed';
}

function currentNavigation(): { type?: string; startedAt: number } {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return { type: entry?.type, startedAt: performance.timeOrigin };
}
