/**
 * Finishing a consultation is saved on the device first, like a recorded part, so a finish pressed with no
 * network (or answered by nobody) is sent when the connection returns instead of being lost. The uploader sends
 * it after the parts it counts (offline/uploader.ts) and deletes it only when the server confirmed it.
 */
import { appDb, type AppDatabase, type SessionOp } from './db';
import { nextOrderFor } from './chunk-queue';

export const finishKey = (sessionId: string) => `finish:${sessionId}`;

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
    await db.sessions.update(input.sessionId, { finishQueued: true });
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
