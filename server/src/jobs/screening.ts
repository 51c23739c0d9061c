/**
 * Screening a trial's criteria over a space's patients, in the background: one patient at a time, progress
 * counted on the screening's row for the browser to follow, each result written as soon as it is known (a
 * restart keeps what was done and marks the screening failed, to be run again).
 */
import { engineFailureSummary } from '../ai/engine-check.js';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Language } from '../../../contract/constants.js';
import type { UserRow } from '../auth/users.js';
import { clinicalTrials, evaluationResults, researchPatientFiles, researchSpaces, trialScreenings, users } from '../db/schema.js';
import type { AppContext } from '../app-context.js';
import { DomainError } from '../errors/domain-error.js';
import { debitGeneration, refundGeneration } from '../modules/credits/service.js';
import { classify, type Criterion } from '../modules/research_spaces/criteria.js';
import { relevanceOf, unclearPassages } from '../modules/research_spaces/relevance.js';
import { screenPatient } from '../modules/research_spaces/screener.js';
import { visibleTo, type ScreeningRow } from '../modules/research_spaces/service.js';
import { DOCUMENT_SEPARATOR } from '../clinical/record-text.js';

/** A running screening that has not moved on for this long was interrupted (no patient takes this long). */
export const STALE_SCREENING_MS = 15 * 60_000;

/** A patient's files as the screener reads them (the files' texts only: a file name is never evidence), or '' when nothing could be read. */
export function documentsText(files: { fileName: string; text: string }[]): string {
  if (!files.some((f) => f.text.trim())) return '';
  return files.map((f) => f.text).join(DOCUMENT_SEPARATOR);
}

async function documentsOf(ctx: AppContext, patientId: string): Promise<string> {
  return documentsText(
    await ctx.db.select().from(researchPatientFiles).where(eq(researchPatientFiles.patientId, patientId)).orderBy(asc(researchPatientFiles.createdAt)),
  );
}

type TrialText = { name: string; description: string };

async function screenOne(ctx: AppContext, run: ScreeningRow, user: UserRow, trial: TrialText, criteria: Criterion[], patientId: string) {
  const documents = await documentsOf(ctx, patientId);
  // Records with no legible text leave every criterion unclear; no model is asked, nothing is charged.
  const engine = documents ? run.engine : 'offline';
  const charged = engine !== 'offline' ? await debitGeneration(ctx.db, user, 'screening') : undefined;
  let screening;
  try {
    screening = await screenPatient(ctx.textGenerator, criteria, documents, user.language as Language);
  } catch (err) {
    // A patient the model could not screen is not paid for.
    if (charged) await refundGeneration(ctx.db, user, charged.ledgerId, 'screening_refund');
    throw err;
  }
  const { assessments, explanation } = screening;
  const verdicts = new Map(assessments.map((a) => [a.criterion_id, a]));
  const { preEvaluation, met, status } = classify(criteria, assessments);
  const passages = unclearPassages(criteria, assessments, documents);
  const values = {
    screeningId: run.id,
    preEvaluation,
    criteriaMet: met,
    criteriaTotal: criteria.length,
    // The criteria are copied as they were screened: editing them later does not rewrite past results.
    criteria: criteria.map((c) => {
      const { verdict, evidence, explanation } = verdicts.get(c.id)!;
      const best = passages.get(c.id);
      return {
        criterion_id: c.id,
        definition: c.definition,
        type: c.type,
        needs_review: c.needsReview,
        verdict,
        evidence,
        ...(explanation ? { explanation } : {}),
        ...(best ? { passages: best } : {}),
      };
    }),
    explanation,
    relevance: relevanceOf(trial, criteria, assessments, documents).score,
    status,
    engine,
    // Only the screening's own columns: a reviewer's decision and note (and who made them) outlive a new screening.
    createdAt: new Date(),
  };
  await ctx.db
    .insert(evaluationResults)
    .values({ trialId: run.trialId, patientId, ...values })
    .onConflictDoUpdate({ target: [evaluationResults.trialId, evaluationResults.patientId], set: values });
}

/**
 * The member who started the screening, read again before each patient: one removed from the organization (or
 * deleted) meanwhile no longer spends its credits or reads its patients' records; undefined then.
 */
async function stillAllowed(ctx: AppContext, run: ScreeningRow, userId: string): Promise<UserRow | undefined> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const [space] = await ctx.db
    .select({ id: researchSpaces.id })
    .from(clinicalTrials)
    .innerJoin(researchSpaces, eq(researchSpaces.id, clinicalTrials.spaceId))
    .where(and(eq(clinicalTrials.id, run.trialId), visibleTo(user)));
  return space ? user : undefined;
}

/** Screens patient after patient; the row counts progress so the browser can show it, and says how it ended. */
async function runScreening(ctx: AppContext, run: ScreeningRow, startedBy: UserRow, criteria: Criterion[], patientIds: string[]) {
  const failures: string[] = [];
  let accessLost = false;
  const [trial] = await ctx.db
    .select({ name: clinicalTrials.name, description: clinicalTrials.description })
    .from(clinicalTrials)
    .where(eq(clinicalTrials.id, run.trialId));
  for (const patientId of patientIds) {
    if (ctx.shutdown.aborted) break;
    const user = await stillAllowed(ctx, run, startedBy.id);
    if (!user) {
      accessLost = true;
      break;
    }
    try {
      await screenOne(ctx, run, user, trial ?? { name: '', description: '' }, criteria, patientId);
    } catch (err) {
      if (err instanceof DomainError && err.status === 402) {
        failures.push(err.message);
        break;
      }
      // Our own refusals say what to do; an engine's words stay on the server (they may hold key fragments or hosts).
      failures.push(err instanceof DomainError ? err.message : engineFailureSummary(err));
    }
    await ctx.db
      .update(trialScreenings)
      .set({ done: sql`${trialScreenings.done} + 1`, heartbeatAt: new Date() })
      .where(eq(trialScreenings.id, run.id));
  }
  const interrupted = ctx.shutdown.aborted;
  const allFailed = failures.length > 0 && failures.length >= patientIds.length;
  await ctx.db
    .update(trialScreenings)
    .set({
      status: interrupted || accessLost || allFailed ? 'failed' : 'completed',
      error: interrupted
        ? 'interrupted by a server restart'
        : accessLost
          ? 'stopped: the member who started it no longer has access to the space'
          : failures.length
            ? `${failures.length} of ${patientIds.length} patients could not be screened: ${failures[0]}`.slice(0, 500)
            : null,
      completedAt: new Date(),
    })
    .where(eq(trialScreenings.id, run.id));
}

/**
 * A screening left running by a server that stopped will never finish: say so, so it can be run again. With
 * PGlite this process is the only one (every running screening is interrupted); with PostgreSQL another instance
 * may be running it, so only those whose heartbeat stopped. `trialId` limits it to one trial.
 */
export async function failInterruptedScreenings(ctx: AppContext, olderThanMs: number, trialId?: string) {
  await ctx.db
    .update(trialScreenings)
    .set({ status: 'failed', error: 'interrupted by a server restart', completedAt: new Date() })
    .where(
      and(
        eq(trialScreenings.status, 'running'),
        lt(trialScreenings.heartbeatAt, new Date(Date.now() - olderThanMs)),
        trialId ? eq(trialScreenings.trialId, trialId) : undefined,
      ),
    );
}

export function startScreening(ctx: AppContext, run: ScreeningRow, user: UserRow, criteria: Criterion[], patientIds: string[]): void {
  const work = runScreening(ctx, run, user, criteria, patientIds).catch((err: unknown) => {
    if (!ctx.shutdown.aborted) console.error('screening could not record its result', err);
  });
  ctx.background.add(work);
  void work.finally(() => ctx.background.delete(work));
}
