import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Language } from '../../../../contract/constants.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { consultationSessions, organizations, users } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { findConsultationType } from '../consultation_types/catalogue.js';
import { findActiveSession, findOwnedSession, findSessionById, type SessionRow } from './repository.js';
import { checkPastRetention, isPastRetention, type SessionAccess } from './retention-state.js';

export class ActiveSessionExistsError extends DomainError {
  constructor(readonly session: SessionRow) {
    super(409, 'active_session_exists', 'You already have an active consultation');
  }
}

export async function createSession(
  ctx: AppContext,
  userId: string,
  input: { consultation_type_id: string; mobile?: boolean; force?: boolean; id?: string; language?: Language },
): Promise<SessionRow> {
  const type = findConsultationType(input.consultation_type_id);
  if (!type) {
    throw new DomainError(400, 'invalid_request', 'Unknown consultation type', { consultation_type_id: 'unknown_consultation_type' });
  }
  const existing = await findActiveSession(ctx.db, userId);
  if (existing && !input.force) throw new ActiveSessionExistsError(existing);
  try {
    return await ctx.db.transaction(async (tx) => {
      // With force the old consultation is finished, not deleted: its audio and transcript stay available.
      if (existing) await finishSessionRow(tx as unknown as Database, existing.id, ctx.config.retentionMinutes);
      const [created] = await tx
        .insert(consultationSessions)
        .values({
          ...(input.id ? { id: input.id } : {}),
          userId,
          organizationId: sql`(select ${users.organizationId} from ${users} where ${users.id} = ${userId})`,
          // The organization's consent rule as it stands when the consultation begins: kept with it.
          consentRequired: sql`coalesce((select ${organizations.recordingConsent} from ${organizations} join ${users} on ${users.organizationId} = ${organizations.id} where ${users.id} = ${userId}), 'off')`,
          consultationTypeId: type.id,
          mobile: input.mobile ?? false,
          language: input.language ?? sql`(select ${users.language} from ${users} where ${users.id} = ${userId})`,
          showTranscription: type.showTranscription,
        })
        .returning();
      return created!;
    });
  } catch (err) {
    // An id already used, by a replay that raced this one or by somebody else: nothing about it is told.
    if (input.id && isUniqueViolation(err) && (await findSessionById(ctx.db, input.id))) {
      const mine = await findOwnedSessionById(ctx, userId, input.id);
      if (mine) return mine;
      throw new DomainError(409, 'session_id_taken', 'This consultation id cannot be used: start the consultation again', { id: 'taken' });
    }
    // A concurrent start won the race for the one active slot.
    if (isUniqueViolation(err)) {
      const winner = await findActiveSession(ctx.db, userId);
      if (winner) throw new ActiveSessionExistsError(winner);
    }
    throw err;
  } finally {
    // After the commit: a poll that read the row before it must not have its answer kept.
    ctx.activeStatus.forget(userId);
  }
}

/** Finishes an active session; undefined when it was not active (another request finished it first). */
async function finishSessionRow(db: Database, id: string, retentionMinutes: number, parts?: number): Promise<SessionRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(consultationSessions)
    .set({
      status: 'finished',
      recordingState: 'stopped',
      finishedAt: now,
      expiresAt: new Date(now.getTime() + retentionMinutes * 60_000),
      updatedAt: now,
      // Also every part another device recorded (its heartbeats report its count): finishing on the desktop while the
      // phone records still waits for the phone's last parts.
      ...(parts === undefined ? {} : { expectedParts: raisedExpectedParts(parts, sql`${consultationSessions.recorderNextOrder}`) }),
    })
    .where(and(eq(consultationSessions.id, id), eq(consultationSessions.status, 'active')))
    .returning();
  return row;
}

/**
 * A repeated finish may name more parts than an earlier one (its queue found more), never fewer; `atLeast` is
 * another count the notes must wait for too (the recorder's reported one).
 */
const raisedExpectedParts = (parts: number, atLeast: SQL = sql`0`) =>
  sql`greatest(coalesce(${consultationSessions.expectedParts}, 0), ${parts}::int, ${atLeast})`;

/** The caller's own session with this id, whatever its state (a replayed start answers it as it is). */
export async function findOwnedSessionById(ctx: AppContext, userId: string, id: string): Promise<SessionRow | undefined> {
  return findOwnedSession(ctx.db, userId, id);
}

/** The caller's consultation for `access` (a change unless said otherwise); past its window see retention-state.ts. */
export async function requireOwnedSession(ctx: AppContext, userId: string, id: string, access: SessionAccess = 'change'): Promise<SessionRow> {
  const session = await findOwnedSession(ctx.db, userId, id);
  if (!session) throw notFound('Consultation not found');
  if (isPastRetention(session)) await checkPastRetention(ctx.db, session, access);
  return session;
}

/**
 * Finishing twice is harmless: the second call answers the finished session as it is (recording a larger part
 * count if it names one). `finishedNow` is true only for the call whose update moved the session from active to
 * finished, so of two racing finishes (two tabs, two API processes) exactly one starts the main document.
 */
export async function finishSession(ctx: AppContext, userId: string, id: string, parts?: number): Promise<{ session: SessionRow; finishedNow: boolean }> {
  const session = await requireOwnedSession(ctx, userId, id);
  if (session.status === 'active') {
    const finished = await finishSessionRow(ctx.db, id, ctx.config.retentionMinutes, parts);
    ctx.activeStatus.forget(userId);
    if (finished) return { session: finished, finishedNow: true };
  }
  if (parts !== undefined && parts > (session.expectedParts ?? -1)) {
    const [raised] = await ctx.db
      .update(consultationSessions)
      .set({ expectedParts: raisedExpectedParts(parts), updatedAt: new Date() })
      .where(and(eq(consultationSessions.id, id), eq(consultationSessions.userId, userId)))
      .returning();
    if (raised) return { session: raised, finishedNow: false };
  }
  return { session: await requireOwnedSession(ctx, userId, id), finishedNow: false };
}

export async function updateSession(
  ctx: AppContext,
  userId: string,
  id: string,
  changes: Partial<typeof consultationSessions.$inferInsert>,
): Promise<SessionRow> {
  await requireOwnedSession(ctx, userId, id);
  const [row] = await ctx.db
    .update(consultationSessions)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(consultationSessions.id, id), eq(consultationSessions.userId, userId)))
    .returning();
  return row!;
}

/** Recording controls apply to an active consultation only. */
export async function setRecordingState(
  ctx: AppContext,
  userId: string,
  id: string,
  state: 'recording' | 'paused',
  extra: Partial<typeof consultationSessions.$inferInsert> = {},
) {
  const session = await requireOwnedSession(ctx, userId, id);
  if (session.status !== 'active') throw new DomainError(409, 'session_finished', 'This consultation has already ended');
  const row = await updateSession(ctx, userId, id, { recordingState: state, ...extra });
  ctx.activeStatus.forget(userId);
  return row;
}

/**
 * Keeps the patient's consent with the consultation: how (the clinician confirming the patient's word, or the patient
 * on the screen) and when. The method must be the one the organization asked for; the first consent stands.
 */
export async function recordConsent(ctx: AppContext, session: SessionRow, userId: string, method: 'clinician' | 'patient', givenAt?: string) {
  if (session.consentRequired !== 'off' && method !== session.consentRequired) {
    throw new DomainError(409, 'consent_method_mismatch', 'Your organization asks for consent another way', { method: 'mismatch' });
  }
  const now = Date.now();
  const asked = givenAt ? Date.parse(givenAt) : now;
  // A device's clock may be off: the time is kept within the consultation's life so far.
  const at = new Date(Math.min(now, Math.max(asked, session.createdAt.getTime())));
  await ctx.db
    .update(consultationSessions)
    .set({ consentMethod: method, consentAt: at, consentBy: userId })
    .where(and(eq(consultationSessions.id, session.id), isNull(consultationSessions.consentAt)));
}
