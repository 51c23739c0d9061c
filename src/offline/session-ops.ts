/**
 * Starting and finishing a consultation are saved on the device first, like recorded parts, so a consultation
 * can be started and finished with no network (or with nobody answering) and the server learns of both when
 * the connection returns. The uploader (offline/uploader.ts) sends a start before anything of its consultation
 * and a finish after the parts it counts, and deletes each only when the server confirmed it.
 */
import { appDb, type AppDatabase, type CachedSession, type SessionOp } from './db';
import { nextOrderFor } from './chunk-queue';

export const finishKey = (sessionId: string) => `finish:${sessionId}`;
export const createKey = (sessionId: string) => `create:${sessionId}`;

/** A random (version 4) UUID; not crypto.randomUUID, which phones on the clinic network over plain http lack. */
export function newConsultationId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A consultation begun on this device with no network: it gets an id here, is cached as active so its screen
 * works and records into the queue, and its start waits to be sent first.
 */
export async function startLocally(
  input: { userId: string; consultationTypeId: string; showTranscription: boolean; mobile: boolean; id?: string },
  db: AppDatabase = appDb(),
): Promise<CachedSession> {
  const id = input.id ?? newConsultationId();
  const now = Date.now();
  const session: CachedSession = {
    id,
    status: 'active',
    consultation_type_id: input.consultationTypeId,
    show_transcription: input.showTranscription,
    recording_state: 'idle',
    created_at: new Date(now).toISOString(),
    finished_at: null,
    expires_at: null,
    transcription: '',
    transcription_status: 'none',
    user_inputs: [],
    nextOrder: 0,
    cachedAt: now,
  };
  await db.transaction('rw', db.sessionOps, db.sessions, async () => {
    await db.sessions.put(session);
    await db.sessionOps.put({
      key: createKey(id),
      kind: 'create',
      userId: input.userId,
      sessionId: id,
      parts: 0,
      consultationTypeId: input.consultationTypeId,
      mobile: input.mobile,
      createdAt: now,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
    });
  });
  return session;
}

/** Whether the server has yet to hear of this consultation (its start still waits on this device). */
export async function startWaiting(sessionId: string, db: AppDatabase = appDb()): Promise<SessionOp | undefined> {
  return db.sessionOps.get(createKey(sessionId));
}

/**
 * Saves the finish of a consultation with the number of parts recorded on this device. Finishing again (a second
 * press, or after more recording) keeps the larger count; the local copy of the session is marked as finishing.
 */
export async function queueFinish(input: { userId: string; sessionId: string }, db: AppDatabase = appDb()): Promise<SessionOp> {
  const parts = await nextOrderFor(input.sessionId, db);
  return db.transaction('rw', db.sessionOps, db.sessions, async () => {
    const key = finishKey(input.sessionId);
    const existing = await db.sessionOps.get(key);
    const op: SessionOp = {
      key,
      kind: 'finish',
      userId: input.userId,
      sessionId: input.sessionId,
      parts: Math.max(parts, existing?.parts ?? 0),
      createdAt: existing?.createdAt ?? Date.now(),
      status: 'pending',
      attempts: existing?.attempts ?? 0,
      nextAttemptAt: 0,
    };
    await db.sessionOps.put(op);
    return op;
  });
}

/** Whether this device still holds a finish of the session the server has not confirmed yet. */
export async function finishWaiting(sessionId: string, db: AppDatabase = appDb()): Promise<SessionOp | undefined> {
  return db.sessionOps.get(finishKey(sessionId));
}

/** Resolves true once the server confirmed the finish, false when `timeoutMs` passed first. */
export async function waitForFinishSent(sessionId: string, timeoutMs: number, db: AppDatabase = appDb()): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const op = await finishWaiting(sessionId, db);
    if (!op) return true;
    if (op.status === 'failed' || Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 150));
  }
}
