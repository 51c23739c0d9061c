/**
 * Deletes what the clinician does not keep. A finished consultation's data lives for the retention window
 * (RETENTION_MINUTES); when it ends, its audio is removed from the blob store, and:
 * - with `save_text_data` off (the default), the whole consultation goes (transcript, inputs, documents);
 * - with it on, the text stays for the clinician's history (status `archived`, transcript folded into the row).
 * A consultation never finished is treated the same once nothing has happened in it for ABANDONED_SESSION_HOURS
 * (no part received, no change): it is finished with its window already over, and the same pass removes it.
 * With `save_audios` off, audio is removed as soon as its part is transcribed (see the transcription worker).
 * Blobs go before rows: a crash in between leaves a row the next sweep finishes, never an orphaned file.
 *
 * A deleted row is not gone from PGlite's files: its bytes stay in the table's pages (plain VACUUM leaves them in
 * the free space) and in the write-ahead log. On PGlite, after a pass that deleted something, the tables that hold
 * consultation text are rewritten (VACUUM FULL) and the log moved to a new segment so the old one is removed
 * (scrubDeletedRows). PostgreSQL is left to autovacuum (README, Retention).
 */
import { and, eq, lt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { assistantThreads, audioChunks, consultationSessions, recordSystemLinkRequests, smartLaunches, users } from '../db/schema.js';
import { assembleTranscription } from '../modules/consultation_sessions/transcription.js';
import type { BlobStore } from '../storage/blob-store.js';
import { describeErrorSafely } from '../errors/safe-errors.js';

const BATCH = 50;

/** Rewriting the tables costs time in proportion to their size: on a busy PGlite at most this often. */
export const SCRUB_INTERVAL_MS = 10 * 60_000;

/** Every table a consultation's text can sit in (cascading from consultation_sessions). */
const CONSULTATION_TABLES = ['consultation_sessions', 'audio_chunks', 'generated_documents', 'document_feedback', 'consultation_feedback'] as const;
/** Every table whose rows hold patient text: consultations, assistant conversations, research records and results. */
const SCRUBBED_TABLES = [
  ...CONSULTATION_TABLES,
  'assistant_messages',
  'research_patients',
  'research_patient_files',
  'evaluation_results',
  'record_system_link_requests',
] as const;

export const sessionBlobPrefix = (sessionId: string) => `sessions/${sessionId}/`;

export type SweepResult = { deleted: number; archived: number; abandoned: number; conversations: number };

export type SweepOptions = {
  now?: Date;
  abandonedAfterHours?: number;
  /** Assistant conversations idle this long are deleted, unless their clinician keeps text (save_text_data). */
  conversationMinutes?: number;
  /** Told whose consultations were ended as abandoned (their phones' cached "active" answer must go). */
  onEnded?: (userIds: string[]) => void;
};

/**
 * Assistant conversations carry patient text as much as consultations do, so they follow the same window: a
 * conversation whose last message is older than it goes, with its messages and runs (cascade), unless the
 * clinician chose to keep text. A conversation still in use is never cut: the window counts from its last word.
 */
async function deleteIdleConversations(db: Database, cutoff: Date): Promise<number> {
  const deleted = await db
    .delete(assistantThreads)
    .where(
      and(
        sql`${assistantThreads.userId} in (select id from users where save_text_data = false)`,
        lte(assistantThreads.createdAt, cutoff),
        sql`not exists (select 1 from assistant_messages m where m.thread_id = ${assistantThreads.id} and m.created_at > ${cutoff.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: assistantThreads.id });
  return deleted.length;
}

/**
 * Consultations still active with no activity since `cutoff` are ended, with a window that is already over. The
 * last activity is the later of the row's last change and the last part received, never the start: a long
 * consultation still recording sends a part every few seconds and is never touched. The condition is checked in
 * the same statement that ends it, so a part arriving meanwhile keeps it.
 */
async function endAbandonedConsultations(db: Database, now: Date, cutoff: Date, onEnded?: (userIds: string[]) => void): Promise<number> {
  const ended = await db
    .update(consultationSessions)
    .set({ status: 'finished', recordingState: 'stopped', finishedAt: now, expiresAt: now, updatedAt: now })
    .where(
      and(
        eq(consultationSessions.status, 'active'),
        lte(consultationSessions.updatedAt, cutoff),
        sql`not exists (select 1 from audio_chunks c where c.session_id = ${consultationSessions.id} and c.created_at > ${cutoff.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: consultationSessions.id, userId: consultationSessions.userId });
  if (ended.length) onEnded?.([...new Set(ended.map((e) => e.userId))]);
  return ended.length;
}

export async function sweepExpiredConsultations(db: Database, blobs: BlobStore, opts: SweepOptions = {}): Promise<SweepResult> {
  const now = opts.now ?? new Date();
  const result: SweepResult = { deleted: 0, archived: 0, abandoned: 0, conversations: 0 };
  // Launches from a record system never finished, and link requests never answered (they name a patient).
  await db.delete(smartLaunches).where(lt(smartLaunches.expiresAt, now));
  await db.delete(recordSystemLinkRequests).where(lt(recordSystemLinkRequests.expiresAt, now));
  if (opts.conversationMinutes) result.conversations = await deleteIdleConversations(db, new Date(now.getTime() - opts.conversationMinutes * 60_000));
  if (opts.abandonedAfterHours)
    result.abandoned = await endAbandonedConsultations(db, now, new Date(now.getTime() - opts.abandonedAfterHours * 3600_000), opts.onEnded);
  for (;;) {
    const expired = await db
      .select({ id: consultationSessions.id, keepText: users.saveTextData, override: consultationSessions.transcriptionOverride })
      .from(consultationSessions)
      .innerJoin(users, eq(users.id, consultationSessions.userId))
      .where(and(eq(consultationSessions.status, 'finished'), lte(consultationSessions.expiresAt, now)))
      .limit(BATCH);
    if (expired.length === 0) return result;
    for (const s of expired) {
      await blobs.deletePrefix(sessionBlobPrefix(s.id));
      if (!s.keepText) {
        await db.delete(consultationSessions).where(eq(consultationSessions.id, s.id));
        result.deleted++;
        continue;
      }
      await db.transaction(async (tx) => {
        const chunks = await tx.select().from(audioChunks).where(eq(audioChunks.sessionId, s.id));
        const text = s.override ?? assembleTranscription(chunks).text;
        await tx
          .update(consultationSessions)
          .set({ status: 'archived', transcriptionOverride: text, updatedAt: new Date() })
          .where(eq(consultationSessions.id, s.id));
        await tx.delete(audioChunks).where(eq(audioChunks.sessionId, s.id));
      });
      result.archived++;
    }
  }
}

/**
 * PGlite only: removes the bytes of deleted rows from the database's files. VACUUM FULL writes each table anew
 * without its dead rows (and their TOAST); switching the write-ahead log to a new segment, with recycling off,
 * lets the checkpoint delete the segment that logged them instead of keeping it for reuse. Measured: after plain
 * VACUUM a deleted row's text was still in the table's file, after this it is in no file under DATA_DIR
 * (retention-marker.test.ts).
 */
export async function scrubDeletedRows(db: Database): Promise<void> {
  await db.execute(sql.raw(`VACUUM FULL ${SCRUBBED_TABLES.join(', ')}`));
  await db.execute(sql`SET wal_recycle = off`);
  await db.execute(sql`SELECT pg_switch_wal()`);
  await db.execute(sql`CHECKPOINT`);
}

/** With `save_audios` off the audio of a transcribed part is removed at once; its transcript stays. */
export async function discardAudio(db: Database, blobs: BlobStore, part: { id: string; blobKey: string }): Promise<void> {
  await blobs.delete(part.blobKey);
  await db.update(audioChunks).set({ audioDeletedAt: new Date() }).where(eq(audioChunks.id, part.id));
}

export type RetentionJobOptions = {
  db: Database;
  blobs: BlobStore;
  everySeconds: number;
  abandonedAfterHours: number;
  /** RETENTION_MINUTES: also the window of idle assistant conversations. */
  conversationMinutes?: number;
  /** True on PGlite: deleted rows are scrubbed from the database's files (scrubDeletedRows). */
  scrubFiles: boolean;
  onEnded?: (userIds: string[]) => void;
  log: FastifyBaseLogger;
};

/**
 * Runs the sweep now and then every `everySeconds`; the timer never keeps the process alive. After a sweep that
 * deleted something the files are scrubbed at once, or, within SCRUB_INTERVAL_MS of the last scrub, on a later
 * pass (and at the latest when the server stops).
 */
export type RetentionJob = {
  stop(): Promise<void>;
  /** Patient data was deleted outside the sweep (an account, a research patient…): scrub the files soon too. */
  requestScrub(): void;
};

export function startRetentionJob(opts: RetentionJobOptions): RetentionJob {
  let running: Promise<unknown> = Promise.resolve();
  let scrubDue = false;
  let lastScrub = Number.NEGATIVE_INFINITY;
  const scrub = async () => {
    const started = Date.now();
    await scrubDeletedRows(opts.db);
    scrubDue = false;
    lastScrub = Date.now();
    opts.log.info({ ms: lastScrub - started }, 'retention: deleted consultations scrubbed from the database files');
  };
  const pass = async () => {
    const r = await sweepExpiredConsultations(opts.db, opts.blobs, {
      abandonedAfterHours: opts.abandonedAfterHours,
      conversationMinutes: opts.conversationMinutes,
      onEnded: opts.onEnded,
    });
    if (r.deleted || r.archived || r.abandoned || r.conversations) opts.log.info(r, 'retention: expired consultations and conversations removed');
    if ((r.deleted || r.conversations) && opts.scrubFiles) scrubDue = true;
    if (scrubDue && Date.now() - lastScrub >= SCRUB_INTERVAL_MS) await scrub();
  };
  const tick = () => {
    running = running.then(pass).catch((err: unknown) => opts.log.error({ err: describeErrorSafely(err) }, 'retention sweep failed'));
  };
  const requestScrub = () => {
    if (opts.scrubFiles) scrubDue = true;
  };
  if (opts.everySeconds <= 0) return { stop: async () => undefined, requestScrub };
  tick();
  const timer = setInterval(tick, opts.everySeconds * 1000);
  timer.unref();
  return {
    requestScrub,
    async stop() {
      clearInterval(timer);
      await running;
      if (scrubDue) await scrub().catch((err: unknown) => opts.log.error({ err: describeErrorSafely(err) }, 'retention scrub failed'));
    },
  };
}
