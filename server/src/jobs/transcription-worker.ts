/**
 * Transcribes recorded parts as they arrive. The queue is the audio_chunks table itself: a part waits in
 * `pending`, a worker claims it (FOR UPDATE SKIP LOCKED, so several processes can share the work), and it ends
 * `done`, `failed` after its retries, or `unavailable` when the server has no speech engine. A part being
 * worked on when the process dies is claimed again once its lock expires: nothing is lost on restart.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { measureDurationMs } from '../ai/audio-duration.js';
import { TranscriptionUnavailableError, type Transcriber } from '../ai/transcriber.js';
import type { Database } from '../db/client.js';
import { audioChunks, consultationSessions, users } from '../db/schema.js';
import type { BlobStore } from '../storage/blob-store.js';
import { discardAudio } from './retention.js';
import { describeErrorSafely } from '../http/safe-errors.js';

export const MAX_ATTEMPTS = 3;
const LOCK_MINUTES = 5;
const IDLE_POLL_MS = 2000;

/** 5 s, 20 s, 80 s… between attempts. */
export const retryDelayMs = (attempts: number) => 5000 * 4 ** Math.max(0, attempts - 1);

export type TranscriptionQueue = { wake(): void; stop(): Promise<void>; drain(): Promise<void> };

/** A claimed part, with what its owner decides: the transcript's language and whether the audio is kept. */
type Claimed = { id: string; blobKey: string; mimeType: string; attempts: number; language: string; keepAudio: boolean };

async function claimNext(db: Database): Promise<Claimed | undefined> {
  const result = await db.execute(sql`
    UPDATE ${audioChunks} SET transcription_status = 'processing', attempts = attempts + 1,
      locked_until = now() + (${LOCK_MINUTES} * interval '1 minute')
    WHERE id = (
      SELECT id FROM ${audioChunks}
      WHERE (transcription_status = 'pending' AND next_attempt_at <= now())
         OR (transcription_status = 'processing' AND locked_until < now())
      ORDER BY created_at, "order"
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING id, blob_key, mime_type, attempts, session_id`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (!row) return undefined;
  const [owner] = await db
    .select({ language: users.language, keepAudio: users.saveAudios })
    .from(consultationSessions)
    .innerJoin(users, eq(users.id, consultationSessions.userId))
    .where(eq(consultationSessions.id, String(row.session_id)));
  return { id: String(row.id), blobKey: String(row.blob_key), mimeType: String(row.mime_type), attempts: Number(row.attempts), language: owner?.language ?? 'en', keepAudio: owner?.keepAudio ?? true };
}

export function startTranscriptionWorkers(opts: {
  db: Database;
  blobs: BlobStore;
  transcriber: Transcriber;
  workers: number;
  log: FastifyBaseLogger;
}): TranscriptionQueue {
  const { db, blobs, transcriber, log } = opts;
  let stopping = false;
  const wakers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...wakers]) wake();
  };
  const idleWaiters = new Set<() => void>();
  let busy = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      }
      wakers.add(done);
    });

  async function processOne(job: Claimed) {
    try {
      // The decrypted copy, and whatever the engine converts it to, exist only while the engine reads it (removed
      // before the row is updated), in DATA_DIR's scratch space.
      const { durationMs, text } = await blobs.withLocalFile(job.blobKey, async (file, workDir) => ({
        durationMs: await measureDurationMs(file).catch(() => null),
        text: await transcriber.transcribe({ filePath: file, workDir, mimeType: job.mimeType, language: job.language }),
      }));
      // A part the server could not measure keeps the recorder's own figure.
      await db
        .update(audioChunks)
        .set({ transcript: text, transcriptionStatus: 'done', ...(durationMs === null ? {} : { durationMs }), lockedUntil: null, lastError: null })
        .where(eq(audioChunks.id, job.id));
      if (!job.keepAudio) await discardAudio(db, blobs, job);
    } catch (err) {
      const message = describeErrorSafely(err);
      const unavailable = err instanceof TranscriptionUnavailableError;
      const giveUp = unavailable || job.attempts >= MAX_ATTEMPTS;
      log.warn({ chunk: job.id, attempts: job.attempts, err: message }, giveUp ? 'transcription gave up' : 'transcription will retry');
      await db
        .update(audioChunks)
        .set({
          transcriptionStatus: unavailable ? 'unavailable' : giveUp ? 'failed' : 'pending',
          nextAttemptAt: new Date(Date.now() + retryDelayMs(job.attempts)),
          lockedUntil: null,
          lastError: message.slice(0, 500),
        })
        .where(and(eq(audioChunks.id, job.id), eq(audioChunks.transcriptionStatus, 'processing')));
      if (giveUp && !unavailable && !job.keepAudio) await discardAudio(db, blobs, job);
    }
  }

  async function loop() {
    while (!stopping) {
      // Counted as busy while claiming too: an idle check must not run between a claim and its work.
      busy++;
      let job: Claimed | undefined;
      try {
        job = await claimNext(db);
      } catch (err) {
        if (!stopping) log.error({ err }, 'could not claim a transcription job');
      }
      if (!job) {
        busy--;
        if (busy === 0) for (const resolve of idleWaiters) resolve();
        await sleep(IDLE_POLL_MS);
        continue;
      }
      try {
        await processOne(job);
      } finally {
        busy--;
      }
    }
  }

  const loops = Array.from({ length: opts.workers }, () => loop());
  return {
    wake: wakeAll,
    /** Resolves when no part is waiting (tests and benchmarks). */
    drain: () => new Promise<void>((resolve) => {
      idleWaiters.add(() => {
        idleWaiters.clear();
        resolve();
      });
      wakeAll();
    }),
    async stop() {
      stopping = true;
      wakeAll();
      await Promise.all(loops);
    },
  };
}
