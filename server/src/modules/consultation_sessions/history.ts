import { and, desc, eq, gt, inArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { consultationSessions, generatedDocuments } from '../../db/schema.js';
import { listChunks } from './repository.js';
import { audioDeletedAt } from './retention-state.js';
import { assembleTranscription } from './transcription.js';

const LIMIT = 200;
const EXCERPT = 160;

/**
 * A clinician's past consultations, as far as they are kept: finished ones inside the retention window (everything)
 * and archived ones (text only, with save_text_data). With `withContent` off (an admin looking at a member) only
 * what happened is shown (when, which type, which documents), never what was said.
 */
export async function listHistory(db: Database, userId: string, opts: { withContent?: boolean } = {}) {
  const sessions = await db
    .select()
    .from(consultationSessions)
    .where(
      and(
        eq(consultationSessions.userId, userId),
        or(eq(consultationSessions.status, 'archived'), and(eq(consultationSessions.status, 'finished'), gt(consultationSessions.expiresAt, new Date()))),
      ),
    )
    .orderBy(desc(consultationSessions.finishedAt))
    .limit(LIMIT);
  const ids = sessions.map((s) => s.id);
  const docs = ids.length
    ? await db.select({ sessionId: generatedDocuments.sessionId, key: generatedDocuments.documentKey, version: generatedDocuments.version }).from(generatedDocuments).where(inArray(generatedDocuments.sessionId, ids))
    : [];
  const result = [];
  for (const s of sessions) {
    const versions = new Map<string, number>();
    for (const d of docs.filter((x) => x.sessionId === s.id)) versions.set(d.key, Math.max(versions.get(d.key) ?? 0, d.version));
    let excerpt: string | undefined;
    if (opts.withContent) {
      const text = s.transcriptionOverride ?? assembleTranscription(await listChunks(db, s.id)).text;
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
