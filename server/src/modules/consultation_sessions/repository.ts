import { and, asc, desc, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { audioChunks, consultationSessions, generatedDocuments, users } from '../../db/schema.js';
import { afterCursor, newestFirst, PAGE_SIZE, type PageCursor } from './paging.js';

export type SessionRow = typeof consultationSessions.$inferSelect;
export type ChunkRow = typeof audioChunks.$inferSelect;

const prepareOwnedSession = (db: Database) =>
  db
    .select()
    .from(consultationSessions)
    .where(and(eq(consultationSessions.id, sql.placeholder('id')), eq(consultationSessions.userId, sql.placeholder('userId'))))
    .limit(1)
    .prepare('owned_session');
// Every recorded part and poll looks its consultation up: prepared once per database, not built each time.
const ownedSessionQueries = new WeakMap<Database, ReturnType<typeof prepareOwnedSession>>();

/** Ownership is part of every query: another user's session simply does not exist (404). */
export async function findOwnedSession(db: Database, userId: string, id: string): Promise<SessionRow | undefined> {
  let query = ownedSessionQueries.get(db);
  if (!query) ownedSessionQueries.set(db, (query = prepareOwnedSession(db)));
  const [row] = await query.execute({ id, userId });
  return row;
}

export async function findActiveSession(db: Database, userId: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(consultationSessions)
    .where(and(eq(consultationSessions.userId, userId), eq(consultationSessions.status, 'active')))
    .limit(1);
  return row;
}

/** A finished consultation still inside its retention window (everything kept: audio, parts, documents). */
export const keptFinished = () => and(eq(consultationSessions.status, 'finished'), gt(consultationSessions.expiresAt, new Date()));

/**
 * The user's active session and the finished ones still within the retention window, newest first, a page at a
 * time (those after the cursor). Filtered in SQL: archived consultations and their text are never read.
 */
export async function listVisibleSessions(db: Database, userId: string, cursor?: PageCursor): Promise<SessionRow[]> {
  return db
    .select()
    .from(consultationSessions)
    .where(
      and(
        eq(consultationSessions.userId, userId),
        or(eq(consultationSessions.status, 'active'), keptFinished()),
        afterCursor(consultationSessions.createdAt, consultationSessions.id, cursor),
      ),
    )
    .orderBy(...newestFirst(consultationSessions.createdAt, consultationSessions.id))
    .limit(PAGE_SIZE);
}

export async function listRecentFinished(db: Database, userId: string): Promise<SessionRow[]> {
  return (
    db
      .select()
      .from(consultationSessions)
      .where(
        and(
          eq(consultationSessions.userId, userId),
          keptFinished(),
          // A consultation that holds nothing (a start that failed, e.g. a teleconsultation whose tab was not shared,
          // then ended by the next start) is no recent consultation: nothing recorded, typed or written.
          or(
            sql`exists (select 1 from ${audioChunks} where ${audioChunks.sessionId} = ${consultationSessions.id})`,
            sql`exists (select 1 from ${generatedDocuments} where ${generatedDocuments.sessionId} = ${consultationSessions.id})`,
            isNotNull(consultationSessions.transcriptionOverride),
            sql`${consultationSessions.userInputs} <> '[]'::jsonb`,
          ),
        ),
      )
      .orderBy(desc(consultationSessions.finishedAt))
      // Kept an hour by default: a day's worth at most, never the whole table.
      .limit(200)
  );
}

export async function listChunks(db: Database, sessionId: string): Promise<ChunkRow[]> {
  return db.select().from(audioChunks).where(eq(audioChunks.sessionId, sessionId)).orderBy(asc(audioChunks.order));
}

/**
 * The parts as the transcript needs them, without their files' details: what the consultation screen polls and
 * the wait for the transcript before a document reads every half second.
 */
export async function listTranscribedParts(db: Database, sessionId: string) {
  return db
    .select({
      id: audioChunks.id,
      order: audioChunks.order,
      transcript: audioChunks.transcript,
      speakerTurns: audioChunks.speakerTurns,
      transcriptionStatus: audioChunks.transcriptionStatus,
      durationMs: audioChunks.durationMs,
      transcribedBy: audioChunks.transcribedBy,
    })
    .from(audioChunks)
    .where(eq(audioChunks.sessionId, sessionId))
    .orderBy(asc(audioChunks.order));
}

export async function findChunks(db: Database, sessionId: string, ids: string[]): Promise<ChunkRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(audioChunks)
    .where(and(eq(audioChunks.sessionId, sessionId), inArray(audioChunks.id, ids)))
    .orderBy(asc(audioChunks.order));
}

/** Only for callers that proved ownership another way (a signed address). */
export async function findSessionById(db: Database, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(consultationSessions).where(eq(consultationSessions.id, id)).limit(1);
  return row;
}

/** The organization a user belongs to now (null without one, or when the account is gone). */
export async function findUserOrganization(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ organizationId: users.organizationId }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.organizationId ?? null;
}
