/**
 * Transcribes recorded parts as they arrive. The queue is the audio_chunks table itself: a part waits in
 * `pending`, a worker claims it (FOR UPDATE SKIP LOCKED, so several processes can share the work), and it ends
 * `done`, `failed` after its retries, or `unavailable` when the server has no speech engine. A part being
 * worked on when the process dies is claimed again once its lock expires: nothing is lost on restart.
 *
 * Exactly once: the lock's expiry, to the millisecond, is the claim's token (renewed with the lock). A worker records its result only
 * while the row still carries its token, so a worker that stalled past its lock (and whose part another worker
 * took) writes nothing. A worker told to stop finishes its parts for up to STOP_GRACE_MS, then hands the rest
 * back at once (pending again, the attempt not counted) instead of leaving them locked for minutes.
 */
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isLanguage, type Language } from '../../../contract/constants.js';
import { isChannelLayout, type ChannelLayout } from '../../../contract/speakers.js';
import { measureDurationMs } from '../ai/audio-duration.js';
import { transcribePart, type PartTranscript } from '../ai/speaker-turns.js';
import { TranscriptionUnavailableError, type Transcriber } from '../ai/transcriber.js';
import type { Database } from '../db/client.js';
import { audioChunks, consultationSessions, users } from '../db/schema.js';
import type { BlobStore } from '../storage/blob-store.js';
import { discardAudio } from './retention.js';
import { describeErrorSafely } from '../errors/safe-errors.js';
import { leaseFrom, renewEvery } from './lease.js';
import { countJobFailure, observeTranscriptionLag } from '../observability/metrics-registry.js';

export const MAX_ATTEMPTS = 3;
/** A claim's lock, renewed every third of it while the engine works: a dead worker's part waits this long at most. */
export const DEFAULT_LEASE_SECONDS = 60;
const IDLE_POLL_MS = 2000;
/** How often an idle worker looks again for parts an engine could not transcribe but the current one can. */
const REQUEUE_EVERY_MS = 30_000;
/** How long a stopping worker goes on with the parts it holds before it hands them back. */
export const STOP_GRACE_MS = 6000;

/** 5 s, 20 s, 80 s… between attempts. */
export const retryDelayMs = (attempts: number) => 5000 * 4 ** Math.max(0, attempts - 1);

export type TranscriptionQueue = { wake(): void; stop(graceMs?: number): Promise<void>; drain(): Promise<void> };

/** A claimed part, with what its owner decides: the transcript's language and whether the audio is kept. */
type Claimed = {
  id: string;
  /** Changes with each renewal of the lock. */ token: string;
  blobKey: string;
  mimeType: string;
  layout: ChannelLayout;
  attempts: number;
  language: Language;
  keepAudio: boolean;
};

/** Only the worker whose claim the row still carries may change it. */
const heldBy = (job: Claimed) =>
  and(eq(audioChunks.id, job.id), eq(audioChunks.transcriptionStatus, 'processing'), sql`${audioChunks.lockedUntil} = ${job.token}::timestamptz`);

/**
 * A part whose lock passed MAX_ATTEMPTS times (its worker died each time, perhaps because of the part itself) is
 * never claimed again (claimNext) and is marked failed by this sweep, as a part the engine refused three times is,
 * instead of taking down every worker in turn.
 */
async function failAbandonedTooOften(db: Database): Promise<void> {
  await db
    .update(audioChunks)
    .set({ transcriptionStatus: 'failed', lockedUntil: null, lastError: `the worker stopped while transcribing it, ${MAX_ATTEMPTS} times` })
    .where(and(eq(audioChunks.transcriptionStatus, 'processing'), lt(audioChunks.lockedUntil, sql`now()`), gte(audioChunks.attempts, MAX_ATTEMPTS)));
}

/**
 * Parts kept untranscribed for want of an engine (none, or none that speaks their consultation's language) go back
 * to the queue once the current engine speaks it: connected in Settings › AI engines, or the consultation's
 * language changed. Only while their audio is kept.
 */
export async function requeueSpeakable(db: Database, languages: string[], sessionId?: string): Promise<number> {
  if (!languages.length) return 0;
  // Never past the consultation's retention window (its audio is being deleted), never once archived.
  const rows = await db.execute(sql`
    UPDATE ${audioChunks} c SET transcription_status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
    FROM ${consultationSessions} s JOIN ${users} u ON u.id = s.user_id
    WHERE c.session_id = s.id AND c.transcription_status = 'unavailable' AND c.audio_deleted_at IS NULL
      AND s.status <> 'archived' AND (s.expires_at IS NULL OR s.expires_at > now())
      AND coalesce(s.language, u.language) IN (${sql.join(
        languages.map((l) => sql`${l}`),
        sql`, `,
      )})
      ${sessionId ? sql`AND s.id = ${sessionId}` : sql``}
    RETURNING c.id`);
  return (rows as unknown as { rows: unknown[] }).rows.length;
}

async function claimNext(db: Database, leaseSeconds: number): Promise<Claimed | undefined> {
  const result = await db.execute(sql`
    UPDATE ${audioChunks} SET transcription_status = 'processing', attempts = attempts + 1,
      locked_until = ${leaseFrom(leaseSeconds)}
    WHERE id = (
      SELECT id FROM ${audioChunks}
      WHERE (transcription_status = 'pending' AND next_attempt_at <= now())
         OR (transcription_status = 'processing' AND locked_until < now() AND attempts < ${MAX_ATTEMPTS})
      ORDER BY created_at, "order"
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING id, locked_until::text AS token, blob_key, mime_type, channel_layout, attempts, session_id`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (!row) return undefined;
  const [owner] = await db
    // The consultation's language; its clinician's for one begun before it was kept.
    .select({ language: sql<string>`coalesce(${consultationSessions.language}, ${users.language})`, keepAudio: users.saveAudios })
    .from(consultationSessions)
    .innerJoin(users, eq(users.id, consultationSessions.userId))
    .where(eq(consultationSessions.id, String(row.session_id)));
  return {
    id: String(row.id),
    token: String(row.token),
    blobKey: String(row.blob_key),
    mimeType: String(row.mime_type),
    layout: isChannelLayout(row.channel_layout) ? row.channel_layout : 'mono',
    attempts: Number(row.attempts),
    language: isLanguage(owner?.language) ? owner.language : 'en',
    keepAudio: owner?.keepAudio ?? true,
  };
}

export function startTranscriptionWorkers(opts: {
  db: Database;
  blobs: BlobStore;
  transcriber: Transcriber;
  workers: number;
  log: FastifyBaseLogger;
  leaseSeconds?: number;
}): TranscriptionQueue {
  const { db, blobs, transcriber, log } = opts;
  const leaseSeconds = opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;

  /** Keeps the claim's lock while the engine works; the function returned stops renewing (lease.ts, renewEvery). */
  const keepLease = (job: Claimed) =>
    renewEvery((leaseSeconds * 1000) / 3, async () => {
      const row = await db
        .update(audioChunks)
        .set({ lockedUntil: leaseFrom(leaseSeconds) })
        .where(heldBy(job))
        .returning({ token: sql<string>`${audioChunks.lockedUntil}::text` })
        .catch((err: unknown) => {
          // A blip: the next renewal tries again, well inside the lease.
          log.warn({ chunk: job.id, err: describeErrorSafely(err) }, 'the lock of a part being transcribed was not renewed');
          return undefined;
        });
      if (row === undefined) return;
      if (row.length) job.token = row[0]!.token;
      else log.warn({ chunk: job.id }, 'a part being transcribed was taken by another worker: its result here will be dropped');
    });

  let stopping = false;
  let lastAbandonedSweep = 0;
  /** The languages of the engine the last requeue looked for, and when: asked again when they change. */
  let requeuedFor = '';
  let lastRequeue = 0;
  const wakers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...wakers]) wake();
  };
  const idleWaiters = new Set<() => void>();
  let busy = 0;
  /** The parts this process works on, with how to stop renewing their locks. */
  const held = new Map<string, { job: Claimed; settle: () => Promise<void> }>();

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
    const settle = keepLease(job);
    held.set(job.id, { job, settle });
    try {
      await transcribeAndRecord(job, settle);
    } finally {
      await settle();
      held.delete(job.id);
    }
  }

  async function transcribeAndRecord(job: Claimed, settle: () => Promise<void>) {
    let heard: { durationMs: number | null } & PartTranscript;
    // Asked once: the engine may be switched while this part is transcribed, and the part names the one that wrote it.
    const info = transcriber.info;
    // An engine that does not speak the consultation's language would write words that were never said: the part
    // is kept, untranscribed, until one that does is connected (requeueSpeakable).
    if (!info.languages.includes(job.language)) {
      await settle();
      return recordFailure(
        job,
        new TranscriptionUnavailableError(info.languages.length ? `the speech engine does not transcribe ${job.language}` : 'no speech engine'),
      );
    }
    try {
      // The decrypted copy, and whatever the engine converts it to, exist only while the engine reads it (removed
      // before the row is updated), in DATA_DIR's scratch space.
      heard = await blobs.withLocalFile(job.blobKey, async (file, workDir) => {
        // The local engine decodes the whole part anyway and says how long it was; other engines' parts are measured.
        let decoded: number | undefined;
        const part = await transcribePart(transcriber, {
          filePath: file,
          workDir,
          mimeType: job.mimeType,
          language: job.language,
          layout: job.layout,
          onDecoded: (ms) => (decoded ??= ms),
        });
        return { durationMs: decoded ?? (await measureDurationMs(file).catch(() => null)), ...part };
      });
    } catch (err) {
      await settle();
      return recordFailure(job, err);
    }
    await settle();
    // A database error here is not the engine's: it propagates, the part keeps its lock and is transcribed again
    // once the lock passes, instead of counting as a failed attempt.
    // A part the server could not measure keeps the recorder's own figure.
    const recorded = await db
      .update(audioChunks)
      .set({
        transcript: heard.text,
        speakerTurns: heard.turns,
        transcribedBy: info.id ?? info.engine,
        transcriptionStatus: 'done',
        ...(heard.durationMs === null ? {} : { durationMs: heard.durationMs }),
        lockedUntil: null,
        lastError: null,
      })
      .where(heldBy(job))
      // The lag by the database's clock, which also stamped the upload.
      .returning({ id: audioChunks.id, lagSeconds: sql<number | string>`extract(epoch from now() - ${audioChunks.createdAt})` });
    if (!recorded.length) {
      log.warn({ chunk: job.id }, 'transcription finished after its claim passed to another worker: result dropped');
      return;
    }
    observeTranscriptionLag(Number(recorded[0]!.lagSeconds));
    if (!job.keepAudio) await discardAudio(db, blobs, job);
  }

  async function recordFailure(job: Claimed, err: unknown) {
    const message = describeErrorSafely(err);
    const unavailable = err instanceof TranscriptionUnavailableError;
    const giveUp = unavailable || job.attempts >= MAX_ATTEMPTS;
    log.warn({ chunk: job.id, attempts: job.attempts, err: message }, giveUp ? 'transcription gave up' : 'transcription will retry');
    countJobFailure('transcription', unavailable ? 'unavailable' : giveUp ? 'failed' : 'retry');
    const recorded = await db
      .update(audioChunks)
      .set({
        transcriptionStatus: unavailable ? 'unavailable' : giveUp ? 'failed' : 'pending',
        nextAttemptAt: new Date(Date.now() + retryDelayMs(job.attempts)),
        lockedUntil: null,
        lastError: message.slice(0, 500),
      })
      .where(heldBy(job))
      .returning({ id: audioChunks.id });
    if (recorded.length && giveUp && !unavailable && !job.keepAudio) await discardAudio(db, blobs, job);
  }

  async function loop() {
    while (!stopping) {
      // Counted as busy while claiming too: an idle check must not run between a claim and its work.
      busy++;
      let job: Claimed | undefined;
      try {
        job = await claimNext(db, leaseSeconds);
      } catch (err) {
        if (!stopping) log.error({ err }, 'could not claim a transcription job');
      }
      if (!job) {
        // Idle: parts waiting for an engine that speaks their language, if this one does (at once when it changed).
        const languages = transcriber.info.languages.join(',');
        if (languages && (languages !== requeuedFor || Date.now() - lastRequeue >= REQUEUE_EVERY_MS)) {
          requeuedFor = languages;
          lastRequeue = Date.now();
          const requeued = await requeueSpeakable(db, transcriber.info.languages).catch((err: unknown) => {
            log.warn({ err: describeErrorSafely(err) }, 'parts waiting for a speech engine not put back in the queue');
            return 0;
          });
          if (requeued) {
            log.info({ parts: requeued }, 'parts kept for want of a speech engine are being transcribed');
            busy--;
            continue;
          }
        }
        // Idle, and a lease may have passed since: parts abandoned too often are marked failed (claims skip them).
        if (Date.now() - lastAbandonedSweep >= leaseSeconds * 1000) {
          lastAbandonedSweep = Date.now();
          await failAbandonedTooOften(db).catch((err: unknown) => log.warn({ err: describeErrorSafely(err) }, 'parts abandoned too often not marked failed'));
        }
        busy--;
        if (busy === 0) for (const resolve of idleWaiters) resolve();
        await sleep(IDLE_POLL_MS);
        continue;
      }
      try {
        await processOne(job).catch((err: unknown) =>
          log.error({ chunk: job.id, err: describeErrorSafely(err) }, 'transcription result not recorded; the part is taken up again when its lock expires'),
        );
      } finally {
        busy--;
      }
    }
  }

  const loops = Array.from({ length: opts.workers }, () => loop());
  return {
    wake: wakeAll,
    /** Resolves when no part is waiting (tests and benchmarks). */
    drain: () =>
      new Promise<void>((resolve) => {
        idleWaiters.add(() => {
          idleWaiters.clear();
          resolve();
        });
        wakeAll();
      }),
    async stop(graceMs = STOP_GRACE_MS) {
      stopping = true;
      wakeAll();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.all(loops).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (finished) return;
      // Still working: the parts go back to the queue now (their results, should they come, are dropped). Renewals
      // stop first, so that the hand-back names the token the row carries.
      let handedBack = 0;
      for (const { job, settle } of [...held.values()]) {
        await settle();
        const rows = await db
          .update(audioChunks)
          .set({ transcriptionStatus: 'pending', attempts: sql`${audioChunks.attempts} - 1`, lockedUntil: null, nextAttemptAt: sql`now()` })
          .where(heldBy(job))
          .returning({ id: audioChunks.id })
          .catch((err: unknown) => {
            log.error({ chunk: job.id, err: describeErrorSafely(err) }, 'a part could not be handed back; it is taken up when its lock expires');
            return [];
          });
        handedBack += rows.length;
      }
      log.info({ parts: handedBack }, 'transcription stopped: parts in progress handed back to the queue');
    },
  };
}
