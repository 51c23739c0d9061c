import type { preHandlerAsyncHookHandler } from 'fastify';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Language } from '../../../../contract/constants.js';
import type { UserRow } from '../../auth/users.js';
import { evaluationResults, researchPatientFiles, researchPatients, trialScreenings } from '../../db/schema.js';
import { currentUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { accountOf, balanceOf, debitGeneration, GENERATION_COST } from '../credits/service.js';
import { classify, type Criterion } from './criteria.js';
import { screenerEngine, screenPatient } from './screener.js';
import { asCriterion, criteriaOf, screeningView, spaceFor, trialIn, type ScreeningRow, type SpaceRow } from './service.js';

const id = z.uuid({ error: 'invalid_id' });
const trialParams = z.object({ spaceId: id, trialId: id });
const body = z.object({ patient_ids: z.array(id).min(1).max(1000).optional() }).strict().nullish();

/** One patient's documents as the screener reads them: each file under its own name. */
async function documentsOf(ctx: AppContext, patientId: string): Promise<string> {
  const files = await ctx.db.select().from(researchPatientFiles).where(eq(researchPatientFiles.patientId, patientId)).orderBy(asc(researchPatientFiles.createdAt));
  return files.map((f) => `=== ${f.fileName} ===\n${f.text}`).join('\n\n');
}

async function screenOne(ctx: AppContext, run: ScreeningRow, user: UserRow, criteria: Criterion[], patientId: string) {
  if (screenerEngine(ctx.textGenerator) !== 'offline') await debitGeneration(ctx.db, user, 'screening');
  const { assessments, explanation } = await screenPatient(ctx.textGenerator, criteria, await documentsOf(ctx, patientId), user.language as Language);
  const verdicts = new Map(assessments.map((a) => [a.criterion_id, a]));
  const { preEvaluation, met, status } = classify(criteria, assessments);
  const values = {
    screeningId: run.id,
    preEvaluation,
    criteriaMet: met,
    criteriaTotal: criteria.length,
    // The criteria are copied as they were screened: editing them later does not rewrite past results.
    criteria: criteria.map((c) => ({ criterion_id: c.id, definition: c.definition, type: c.type, needs_review: c.needsReview, verdict: verdicts.get(c.id)!.verdict, evidence: verdicts.get(c.id)!.evidence })),
    explanation,
    status,
    engine: run.engine,
    reviewedBy: null,
    reviewedAt: null,
    createdAt: new Date(),
  };
  await ctx.db
    .insert(evaluationResults)
    .values({ trialId: run.trialId, patientId, ...values })
    .onConflictDoUpdate({ target: [evaluationResults.trialId, evaluationResults.patientId], set: values });
}

/** Screens patient after patient; the row counts progress so the browser can show it, and says how it ended. */
async function runScreening(ctx: AppContext, run: ScreeningRow, user: UserRow, criteria: Criterion[], patientIds: string[]) {
  const failures: string[] = [];
  for (const patientId of patientIds) {
    if (ctx.shutdown.aborted) break;
    try {
      await screenOne(ctx, run, user, criteria, patientId);
    } catch (err) {
      if (err instanceof DomainError && err.status === 402) {
        failures.push(err.message);
        break;
      }
      failures.push(err instanceof Error ? err.message : 'screening failed');
    }
    await ctx.db.update(trialScreenings).set({ done: sql`${trialScreenings.done} + 1` }).where(eq(trialScreenings.id, run.id));
  }
  const interrupted = ctx.shutdown.aborted;
  const allFailed = failures.length > 0 && failures.length >= patientIds.length;
  await ctx.db
    .update(trialScreenings)
    .set({
      status: interrupted || allFailed ? 'failed' : 'completed',
      error: interrupted ? 'interrupted by a server restart' : failures.length ? `${failures.length} of ${patientIds.length} patients could not be screened: ${failures[0]}`.slice(0, 500) : null,
      completedAt: new Date(),
    })
    .where(eq(trialScreenings.id, run.id));
}

/** A screening left running by a server that stopped will never finish: say so, so it can be run again. */
export async function failInterruptedScreenings(ctx: AppContext, olderThanMs: number) {
  await ctx.db
    .update(trialScreenings)
    .set({ status: 'failed', error: 'interrupted by a server restart', completedAt: new Date() })
    .where(and(eq(trialScreenings.status, 'running'), sql`${trialScreenings.createdAt} < ${new Date(Date.now() - olderThanMs)}`));
}

async function patientsToScreen(ctx: AppContext, space: SpaceRow, chosen?: string[]) {
  const rows = await ctx.db
    .select({ id: researchPatients.id })
    .from(researchPatients)
    .where(and(eq(researchPatients.spaceId, space.id), chosen ? inArray(researchPatients.id, chosen) : undefined))
    .orderBy(asc(researchPatients.createdAt));
  if (chosen && rows.length !== new Set(chosen).size) throw notFound('Patient not found');
  return rows.map((r) => r.id);
}

export function screeningsRoutes(app: App, ctx: AppContext, preHandler: preHandlerAsyncHookHandler) {
  const base = '/v1/research_spaces/:spaceId/trials/:trialId/screenings';

  app.get(base, { preHandler, schema: { params: trialParams } }, async (request) => {
    const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
    const rows = await ctx.db.select().from(trialScreenings).where(eq(trialScreenings.trialId, trial.id)).orderBy(desc(trialScreenings.createdAt)).limit(10);
    return { screenings: rows.map(screeningView) };
  });

  app.get(`${base}/:screeningId`, { preHandler, schema: { params: trialParams.extend({ screeningId: id }) } }, async (request) => {
    const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
    const [row] = await ctx.db.select().from(trialScreenings).where(and(eq(trialScreenings.id, request.params.screeningId), eq(trialScreenings.trialId, trial.id)));
    if (!row) throw notFound('Screening not found');
    return { screening: screeningView(row) };
  });

  /** Runs the trial's criteria over the space's patients (or the ones chosen), in the background. */
  app.post(base, { preHandler, schema: { params: trialParams, body } }, async (request, reply) => {
    const user = currentUser(request);
    const space = await spaceFor(ctx.db, user, request.params.spaceId);
    const trial = await trialIn(ctx.db, space, request.params.trialId);
    const criteria = (await criteriaOf(ctx.db, trial.id)).map(asCriterion);
    if (criteria.length === 0) throw new DomainError(400, 'invalid_request', 'Add criteria to the trial before screening');
    const patientIds = await patientsToScreen(ctx, space, request.body?.patient_ids);
    if (patientIds.length === 0) throw new DomainError(400, 'invalid_request', 'Add patients before screening');
    const engine = screenerEngine(ctx.textGenerator);
    if (engine !== 'offline' && (await balanceOf(ctx.db, accountOf(user))) < patientIds.length * GENERATION_COST) {
      throw new DomainError(402, 'insufficient_credits', `Screening ${patientIds.length} patients needs ${patientIds.length * GENERATION_COST} credits. Ask your organization to buy more through support.`);
    }
    const [run] = await ctx.db.insert(trialScreenings).values({ trialId: trial.id, startedBy: user.id, total: patientIds.length, engine }).onConflictDoNothing().returning();
    if (!run) throw new DomainError(409, 'invalid_request', 'A screening of this trial is already running');
    const work = runScreening(ctx, run, user, criteria, patientIds).catch((err: unknown) => {
      if (!ctx.shutdown.aborted) console.error('screening could not record its result', err);
    });
    ctx.background.add(work);
    void work.finally(() => ctx.background.delete(work));
    return reply.status(202).send({ screening: screeningView(run) });
  });
}
