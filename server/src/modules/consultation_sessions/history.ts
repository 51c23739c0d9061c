import { and, asc, eq, inArray, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { audioChunks, consultationSessions, generatedDocuments } from '../../db/schema.js';
import { afterCursor, newestFirst, PAGE_SIZE, type PageCursor } from './paging.js';
import { keptFinished } from './repository.js';
import { audioDeletedAt } from './retention-state.js';
import { assembleTranscription, type TranscribedPart } from './transcription.js';

const EXCERPT = 160;
/** The excerpt comes from the first two minutes: enough words for it, whatever the consultation's length. */
const EXCERPT_PARTS = 24;

/** One past consultation as listHistory gives it; transcript_excerpt only with content. */
export const historyItemSchema = z.object({
  id: z.uuid(),
  consultation_type_id: z.string(),
  status: z.enum(['finished', 'archived']),
  data_kept: z.enum(['text', 'all']),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime().nullable(),
  audio_deleted_at: z.iso.datetime().nullable(),
  documents: z.array(z.object({ key: z.string(), versions: z.number().int() })),
  transcript_excerpt: z.string().optional(),
});

/**
 * A clinician's past consultations, as far as they are kept: finished ones inside the retention window (everything)
 * and archived ones (text only, with save_text_data). With `withContent` off (an admin looking at a member) only
 * what happened is shown (when, which type, which documents), never what was said.
 */
export async function listHistory(db: Database, userId: string, opts: { withContent?: boolean; cursor?: PageCursor } = {}) {
  const sessions = await db
    .select()
    .from(consultationSessions)
    .where(
      and(
        eq(consultationSessions.userId, userId),
        or(eq(consultationSessions.status, 'archived'), keptFinished()),
        afterCursor(consultationSessions.finishedAt, consultationSessions.id, opts.cursor),
      ),
    )
    .orderBy(...newestFirst(consultationSessions.finishedAt, consultationSessions.id))
    .limit(PAGE_SIZE);
  const ids = sessions.map((s) => s.id);
  const docs = ids.length
    ? await db
        .select({ sessionId: generatedDocuments.sessionId, key: generatedDocuments.documentKey, version: generatedDocuments.version })
        .from(generatedDocuments)
        .where(inArray(generatedDocuments.sessionId, ids))
    : [];
  // The first parts of every listed consultation in one query, not one query per consultation.
  const firstParts = new Map<string, TranscribedPart[]>();
  if (opts.withContent && ids.length) {
    const rows = await db
      .select({
        sessionId: audioChunks.sessionId,
        order: audioChunks.order,
        transcript: audioChunks.transcript,
        speakerTurns: audioChunks.speakerTurns,
        transcriptionStatus: audioChunks.transcriptionStatus,
      })
      .from(audioChunks)
      .where(and(inArray(audioChunks.sessionId, ids), lt(audioChunks.order, EXCERPT_PARTS)))
      .orderBy(asc(audioChunks.sessionId), asc(audioChunks.order));
    for (const r of rows) firstParts.set(r.sessionId, [...(firstParts.get(r.sessionId) ?? []), r]);
  }
  const docsOf = new Map<string, typeof docs>();
  for (const d of docs) docsOf.set(d.sessionId, [...(docsOf.get(d.sessionId) ?? []), d]);
  const result = [];
  for (const s of sessions) {
    const versions = new Map<string, number>();
    for (const d of docsOf.get(s.id) ?? []) versions.set(d.key, Math.max(versions.get(d.key) ?? 0, d.version));
    let excerpt: string | undefined;
    if (opts.withContent) {
      const text = s.transcriptionOverride ?? assembleTranscription(firstParts.get(s.id) ?? []).text;
      excerpt = text.length > EXCERPT ? `${text.slice(0, EXCERPT).trimEnd()}…` : text;
    }
    result.push({
      id: s.id,
      consultation_type_id: s.consultationTypeId,
      status: s.status as 'finished' | 'archived',
      data_kept: s.status === 'archived' ? ('text' as const) : ('all' as const),
      created_at: s.createdAt.toISOString(),
      finished_at: s.finishedAt?.toISOString() ?? null,
      expires_at: s.expiresAt?.toISOString() ?? null,
      /** An archived consultation still opens (read-only): this is when its audio went. */
      audio_deleted_at: audioDeletedAt(s)?.toISOString() ?? null,
      documents: [...versions].map(([key, total]) => ({ key, versions: total })),
      ...(opts.withContent ? { transcript_excerpt: excerpt ?? '' } : {}),
    });
  }
  return result;
}
