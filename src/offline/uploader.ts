/**
 * Sends recorded parts to the server, strictly in order per consultation, one at a time across every tab of
 * this browser (a Web Lock), with exponential backoff while the network or the server is down. A part leaves
 * IndexedDB only when the server acknowledged it; after a reload or a browser restart the next uploader picks
 * up whatever is left, including a part that was mid-upload when the page died.
 *
 * The uploader knows nothing of HTTP or of screens: a transport sends one part, and progress goes out as
 * UploadEvent values to whoever subscribes.
 */
import { releaseAbandonedParts } from './chunk-queue';
import { appDb, type AppDatabase, type SessionOp, type StoredChunk } from './db';

/** One uploader at a time across the tabs and the service worker of this browser. */
export const UPLOAD_LOCK = 'audio-upload';

export type TransportResult = { ok: true } | { ok: false; retry: boolean; reason: 'offline' | 'overloaded' | 'rejected'; status?: number };
export type UploadTransport = (chunk: StoredChunk) => Promise<TransportResult>;
export type SessionOpTransport = (op: SessionOp) => Promise<TransportResult>;

export type UploadEvent =
  | { type: 'uploaded'; sessionId: string; order: number }
  | { type: 'retrying'; sessionId: string; order: number; attempts: number; delayMs: number; reason: 'offline' | 'overloaded' }
  | { type: 'rejected'; sessionId: string; order: number; status?: number }
  | { type: 'op-done'; kind: SessionOp['kind']; sessionId: string }
  | { type: 'op-retrying'; kind: SessionOp['kind']; sessionId: string; attempts: number; delayMs: number; reason: 'offline' | 'overloaded' }
  | { type: 'op-rejected'; kind: SessionOp['kind']; sessionId: string; status?: number }
  | { type: 'idle' };

export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 60_000;
/** 1 s, 2 s, 4 s… up to a minute. */
export const backoffDelay = (attempts: number) => Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));

export type UploaderOptions = {
  transport: UploadTransport;
  /** Sends a queued start or finish; without it they stay queued (for a page that only sends parts). */
  sendSessionOp?: SessionOpTransport;
  /** Only this user's parts are sent: another account signed in on this browser must not upload them. */
  userId: () => string | undefined;
  db?: AppDatabase;
  now?: () => number;
  onEvent?: (e: UploadEvent) => void;
  /** Runs the loop under an exclusive lock; defaults to the Web Locks API when the browser has it. */
  withLock?: (run: () => Promise<void>) => Promise<void>;
};

export function createUploader(opts: UploaderOptions) {
  const db = opts.db ?? appDb();
  const now = opts.now ?? Date.now;
  let stopped = false;
  let running: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const waitFor = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = finish;
    });

  /** Consultations the server does not know yet: nothing of theirs may go before their start. */
  async function awaitingStart(): Promise<Set<string>> {
    return new Set((await db.sessionOps.filter((o) => o.kind === 'create').toArray()).map((o) => o.sessionId));
  }

  /** The first not-failed part of each session (lowest order): only these may go now. */
  async function heads(userId: string): Promise<StoredChunk[]> {
    const rows = await db.audioChunks.where('status').anyOf('pending', 'uploading').toArray();
    const unknown = await awaitingStart();
    const first = new Map<string, StoredChunk>();
    for (const r of rows) {
      if (r.userId !== userId || unknown.has(r.sessionId)) continue;
      const seen = first.get(r.sessionId);
      if (!seen || r.order < seen.order) first.set(r.sessionId, r);
    }
    return [...first.values()].sort((a, b) => a.recordedAt - b.recordedAt || a.order - b.order);
  }

  /** One pass; answers the time of the next due retry, or undefined when nothing waits. */
  async function pass(): Promise<number | undefined> {
    const userId = opts.userId();
    if (!userId) return undefined;
    await releaseAbandonedParts(now(), db);
    let nextDue = await sendSessionOps(userId, 'create');
    for (const chunk of await heads(userId)) {
      if (stopped) return undefined;
      if (chunk.nextAttemptAt > now()) {
        nextDue = Math.min(nextDue ?? Infinity, chunk.nextAttemptAt);
        continue;
      }
      await db.audioChunks.update(chunk.key, { status: 'uploading' });
      let result: TransportResult;
      try {
        result = await opts.transport(chunk);
      } catch {
        result = { ok: false, retry: true, reason: 'offline' };
      }
      if (result.ok) {
        // Acknowledged by the server: only now may the local copy go.
        await db.audioChunks.delete(chunk.key);
        opts.onEvent?.({ type: 'uploaded', sessionId: chunk.sessionId, order: chunk.order });
        nextDue = now();
      } else if (result.retry) {
        const attempts = chunk.attempts + 1;
        const delayMs = backoffDelay(attempts);
        await db.audioChunks.update(chunk.key, { status: 'pending', attempts, nextAttemptAt: now() + delayMs, lastError: result.reason });
        opts.onEvent?.({
          type: 'retrying',
          sessionId: chunk.sessionId,
          order: chunk.order,
          attempts,
          delayMs,
          reason: result.reason === 'overloaded' ? 'overloaded' : 'offline',
        });
        nextDue = Math.min(nextDue ?? Infinity, now() + delayMs);
      } else {
        // Refused for good (e.g. not audio): kept on the device and shown, never deleted silently.
        await db.audioChunks.update(chunk.key, { status: 'failed', attempts: chunk.attempts + 1, lastError: `rejected ${result.status ?? ''}`.trim() });
        opts.onEvent?.({ type: 'rejected', sessionId: chunk.sessionId, order: chunk.order, status: result.status });
        nextDue = now();
      }
    }
    const finishDue = await sendSessionOps(userId, 'finish');
    return finishDue === undefined ? nextDue : Math.min(nextDue ?? Infinity, finishDue);
  }

  /**
   * Sends the waiting starts, or the finishes whose consultation the server knows and whose parts have all
   * left the device (acknowledged, or refused for good and kept as failed: those must not hold the
   * consultation open forever). Answers the time of the next due retry.
   */
  async function sendSessionOps(userId: string, kind: SessionOp['kind']): Promise<number | undefined> {
    if (!opts.sendSessionOp) return undefined;
    let nextDue: number | undefined;
    const ops = (
      await db.sessionOps
        .where('status')
        .anyOf('pending', 'sending')
        .filter((o) => o.userId === userId && o.kind === kind)
        .toArray()
    ).sort((a, b) => a.createdAt - b.createdAt);
    const unknown = kind === 'finish' ? await awaitingStart() : new Set<string>();
    // A consultation started offline goes to the server only after every earlier one of this device has: its start
    // ends whatever consultation is active there, and the earlier ones must have been finished (with their notes) first.
    const earlier = kind === 'create' ? await db.sessionOps.filter((o) => o.userId === userId && o.status !== 'failed').toArray() : [];
    // (An earlier finish leaves only after its parts, so this start also waits for those.)
    const waitsForEarlier = (op: SessionOp) => earlier.some((o) => o.sessionId !== op.sessionId && o.createdAt < op.createdAt);
    for (const op of ops) {
      if (stopped) return undefined;
      if (unknown.has(op.sessionId) || (kind === 'create' && waitsForEarlier(op))) continue;
      const partsLeft =
        kind === 'finish'
          ? await db.audioChunks
              .where('sessionId')
              .equals(op.sessionId)
              .filter((c) => c.status !== 'failed' && c.order < op.parts)
              .count()
          : 0;
      if (partsLeft > 0) continue;
      if (op.nextAttemptAt > now()) {
        nextDue = Math.min(nextDue ?? Infinity, op.nextAttemptAt);
        continue;
      }
      await db.sessionOps.update(op.key, { status: 'sending' });
      let result: TransportResult;
      try {
        result = await opts.sendSessionOp(op);
      } catch {
        result = { ok: false, retry: true, reason: 'offline' };
      }
      if (result.ok) {
        // A later finish of the same consultation (more parts) may have replaced this one meanwhile: keep it.
        await db.transaction('rw', db.sessionOps, async () => {
          const current = await db.sessionOps.get(op.key);
          if (current && current.parts === op.parts) await db.sessionOps.delete(op.key);
        });
        opts.onEvent?.({ type: 'op-done', kind, sessionId: op.sessionId });
        nextDue = now();
      } else if (result.retry) {
        const attempts = op.attempts + 1;
        const delayMs = backoffDelay(attempts);
        await db.sessionOps.update(op.key, { status: 'pending', attempts, nextAttemptAt: now() + delayMs, lastError: result.reason });
        opts.onEvent?.({
          type: 'op-retrying',
          kind,
          sessionId: op.sessionId,
          attempts,
          delayMs,
          reason: result.reason === 'overloaded' ? 'overloaded' : 'offline',
        });
        nextDue = Math.min(nextDue ?? Infinity, now() + delayMs);
      } else {
        await db.sessionOps.update(op.key, { status: 'failed', attempts: op.attempts + 1, lastError: `rejected ${result.status ?? ''}`.trim() });
        opts.onEvent?.({ type: 'op-rejected', kind, sessionId: op.sessionId, status: result.status });
      }
    }
    return nextDue;
  }

  async function loop() {
    while (!stopped) {
      const nextDue = await pass();
      if (stopped) break;
      if (nextDue === undefined) opts.onEvent?.({ type: 'idle' });
      // Sleep until the next retry is due, or until kick() says there is something new.
      await waitFor(nextDue === undefined ? 30_000 : Math.max(0, nextDue - now()));
    }
  }

  const withLock =
    opts.withLock ??
    ((run: () => Promise<void>): Promise<void> =>
      typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request(UPLOAD_LOCK, () => run()).then(() => undefined) : run());

  return {
    start(): void {
      stopped = false;
      running ??= withLock(loop).finally(() => (running = undefined));
    },
    /** Something new to send, or the network came back: retry now instead of at the scheduled time. */
    async kick(): Promise<void> {
      const due = now();
      await db.audioChunks
        .where('status')
        .equals('pending')
        .modify((c) => {
          c.nextAttemptAt = Math.min(c.nextAttemptAt, due);
        });
      await db.sessionOps
        .where('status')
        .equals('pending')
        .modify((o) => {
          o.nextAttemptAt = Math.min(o.nextAttemptAt, due);
        });
      wake?.();
    },
    /** Runs passes until nothing is due now (tests, and a final flush). */
    async flush(): Promise<void> {
      for (let i = 0; i < 10_000; i++) {
        const nextDue = await pass();
        if (nextDue === undefined || nextDue > now()) return;
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
export type Uploader = ReturnType<typeof createUploader>;
