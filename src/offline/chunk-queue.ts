/**
 * The queue of recorded parts waiting for the server. Invariant: a part is written here (and committed)
 * before the recorder moves on, and deleted only after the server answered 2xx for it.
 */
import type { ChannelLayout } from '../../contract/speakers';
import { appDb, chunkKey, type AppDatabase, type StoredChunk } from './db';

export class StorageFullError extends Error {}

/** A `recording` part whose page has not written for this long is taken as finished (its page died). */
export const ABANDONED_AFTER_MS = 5000;

/**
 * Saves a recorded part: `recording` while it grows, `pending` when it is complete. Returns once IndexedDB
 * committed it; throws StorageFullError when the disk is full. A complete part is never overwritten.
 */
export async function saveChunk(
  part: { userId: string; sessionId: string; order: number; blob: Blob; mimeType: string; durationMs: number; channelLayout?: ChannelLayout },
  db: AppDatabase = appDb(),
  state: 'recording' | 'pending' = 'pending',
): Promise<void> {
  const { blob, ...meta } = part;
  const row: StoredChunk = {
    key: chunkKey(part.sessionId, part.order),
    ...meta,
    data: await blob.arrayBuffer(),
    recordedAt: Date.now(),
    status: state,
    heartbeatAt: Date.now(),
    attempts: 0,
    nextAttemptAt: 0,
  };
  try {
    await db.transaction('rw', db.audioChunks, db.sessions, async () => {
      // A complete part already saved (a retried write) is left as it is: the first bytes are the recorded ones.
      const existing = await db.audioChunks.get(row.key);
      if (existing && existing.status !== 'recording') return;
      await db.audioChunks.put(row);
      const cached = await db.sessions.get(part.sessionId);
      if (cached && (cached.nextOrder ?? 0) <= part.order) await db.sessions.update(part.sessionId, { nextOrder: part.order + 1 });
    });
  } catch (err) {
    if (err instanceof Error && (err.name === 'QuotaExceededError' || (err as { inner?: { name?: string } }).inner?.name === 'QuotaExceededError')) {
      throw new StorageFullError('This device has no space left to save the recording');
    }
    throw err;
  }
}

/** The next part number for a session, continuing after a reload from what was saved or cached. */
export async function nextOrderFor(sessionId: string, db: AppDatabase = appDb()): Promise<number> {
  const cached = await db.sessions.get(sessionId);
  const last = await db.audioChunks.where('[sessionId+order]').between([sessionId, -Infinity], [sessionId, Infinity]).last();
  return Math.max(cached?.nextOrder ?? 0, last ? last.order + 1 : 0);
}

/** Parts left `recording` by a page that closed or crashed are complete as far as they go: send them. */
export async function releaseAbandonedParts(now: number, db: AppDatabase = appDb()): Promise<number> {
  return db.audioChunks
    .where('status')
    .equals('recording')
    .filter((c) => now - c.heartbeatAt > ABANDONED_AFTER_MS)
    .modify({ status: 'pending', nextAttemptAt: 0 });
}

export type QueueState = { waiting: number; failed: number };

export async function queueStateFor(sessionId: string, db: AppDatabase = appDb()): Promise<QueueState> {
  const rows = await db.audioChunks.where('sessionId').equals(sessionId).toArray();
  return { waiting: rows.filter((r) => r.status !== 'failed').length, failed: rows.filter((r) => r.status === 'failed').length };
}
