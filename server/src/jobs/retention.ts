/**
 * Deletes what the clinician does not keep. A finished consultation's data lives for the retention window
 * (RETENTION_MINUTES); when it ends, its audio is removed from the blob store, and:
 * - with `save_text_data` off, the whole consultation goes (transcript, inputs, documents);
 * - with it on, the text stays for the clinician's history (status `archived`, transcript folded into the row).
 * With `save_audios` off, audio is removed as soon as its part is transcribed (see the transcription worker).
 * Blobs go before rows: a crash in between leaves a row the next sweep finishes, never an orphaned file.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { audioChunks, consultationSessions, users } from '../db/schema.js';
import { assembleTranscription } from '../modules/consultation_sessions/transcription.js';
import type { BlobStore } from '../storage/blob-store.js';

const BATCH = 50;

export const sessionBlobPrefix = (sessionId: string) => `sessions/${sessionId}/`;

export type SweepResult = { deleted: number; archived: number };

export async function sweepExpiredConsultations(db: Database, blobs: BlobStore, now = new Date()): Promise<SweepResult> {
  const result: SweepResult = { deleted: 0, archived: 0 };
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
        await tx.update(consultationSessions).set({ status: 'archived', transcriptionOverride: text, updatedAt: new Date() }).where(eq(consultationSessions.id, s.id));
        await tx.delete(audioChunks).where(eq(audioChunks.sessionId, s.id));
      });
      result.archived++;
    }
  }
}

/** With `save_audios` off the audio of a transcribed part is removed at once; its transcript stays. */
export async function discardAudio(db: Database, blobs: BlobStore, part: { id: string; blobKey: string }): Promise<void> {
  await blobs.delete(part.blobKey);
  await db.update(audioChunks).set({ audioDeletedAt: new Date() }).where(eq(audioChunks.id, part.id));
}

/** Runs the sweep now and then every `everySeconds`; the timer never keeps the process alive. */
export function startRetentionJob(opts: { db: Database; blobs: BlobStore; everySeconds: number; log: FastifyBaseLogger }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = sweepExpiredConsultations(opts.db, opts.blobs)
      .then((r) => {
        if (r.deleted || r.archived) opts.log.info(r, 'retention: expired consultations removed');
      })
      .catch((err: unknown) => opts.log.error({ err: err instanceof Error ? err.message : String(err) }, 'retention sweep failed'));
  };
  if (opts.everySeconds <= 0) return { stop: async () => undefined };
  tick();
  const timer = setInterval(tick, opts.everySeconds * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
