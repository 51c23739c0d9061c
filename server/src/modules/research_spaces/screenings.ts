import type { onRequestAsyncHookHandler } from 'fastify';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { researchPatientFiles, researchPatients, trialScreenings } from '../../db/schema.js';
import { currentUser } from '../../http/authenticate.js';
import type { App } from '../../http/context.js';
import type { AppContext } from '../../app-context.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { errorResponses } from '../../http/responses.js';
import { screeningSchema } from './schemas.js';
import { failInterruptedScreenings, STALE_SCREENING_MS, startScreening } from '../../jobs/screening.js';
import { accountOf, balanceOf, GENERATION_COST } from '../credits/service.js';
import { screenerEngine } from './screener.js';
import { asCriterion, criteriaOf, screeningView, spaceFor, trialIn, type SpaceRow } from './service.js';

const id = z.uuid({ error: 'invalid_id' });
const trialParams = z.object({ spaceId: id, trialId: id });
const oneScreening = z.object({ screening: screeningSchema });
const body = z
  .object({ patient_ids: z.array(id).min(1).max(1000).optional() })
  .strict()
  .nullish();

async function patientsToScreen(ctx: AppContext, space: SpaceRow, chosen?: string[]) {
  const rows = await ctx.db
    .select({ id: researchPatients.id })
    .from(researchPatients)
    .where(and(eq(researchPatients.spaceId, space.id), chosen ? inArray(researchPatients.id, chosen) : undefined))
    .orderBy(asc(researchPatients.createdAt));
  if (chosen && rows.length !== new Set(chosen).size) throw notFound('Patient not found');
  return rows.map((r) => r.id);
}

export function screeningsRoutes(app: App, ctx: AppContext, preHandler: onRequestAsyncHookHandler) {
  const base = '/v1/research_spaces/:spaceId/trials/:trialId/screenings';

  app.get(
    base,
    {
      onRequest: preHandler,
      schema: {
        params: trialParams,
        response: { 200: z.object({ screenings: z.array(screeningSchema).describe('The last ten, newest first') }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      const rows = await ctx.db.select().from(trialScreenings).where(eq(trialScreenings.trialId, trial.id)).orderBy(desc(trialScreenings.createdAt)).limit(10);
      return { screenings: rows.map(screeningView) };
    },
  );

  app.get(
    `${base}/:screeningId`,
    { onRequest: preHandler, schema: { params: trialParams.extend({ screeningId: id }), response: { 200: oneScreening, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      const [row] = await ctx.db
        .select()
        .from(trialScreenings)
        .where(and(eq(trialScreenings.id, request.params.screeningId), eq(trialScreenings.trialId, trial.id)));
      if (!row) throw notFound('Screening not found');
      return { screening: screeningView(row) };
    },
  );

  /** Runs the trial's criteria over the space's patients (or the ones chosen), in the background. */
  app.post(
    base,
    { onRequest: preHandler, schema: { params: trialParams, body, response: { 202: oneScreening, ...errorResponses(400, 401, 402, 404, 409) } } },
    async (request, reply) => {
      const user = currentUser(request);
      const space = await spaceFor(ctx.db, user, request.params.spaceId);
      const trial = await trialIn(ctx.db, space, request.params.trialId);
      const criteria = (await criteriaOf(ctx.db, trial.id)).map(asCriterion);
      if (criteria.length === 0) throw new DomainError(400, 'invalid_request', 'Add criteria to the trial before screening');
      const patientIds = await patientsToScreen(ctx, space, request.body?.patient_ids);
      if (patientIds.length === 0) throw new DomainError(400, 'invalid_request', 'Add patients before screening');
      const [reading] = await ctx.db
        .select({ id: researchPatientFiles.id })
        .from(researchPatientFiles)
        .where(and(inArray(researchPatientFiles.patientId, patientIds), inArray(researchPatientFiles.textStatus, ['ocr_pending', 'ocr_running'])))
        .limit(1);
      if (reading) throw new DomainError(409, 'records_being_read', 'Some records are scanned pages still being read; screen when they are ready');
      const engine = screenerEngine(ctx.textGenerator);
      if (engine !== 'offline' && (await balanceOf(ctx.db, accountOf(user))) < patientIds.length * GENERATION_COST) {
        throw new DomainError(
          402,
          'insufficient_credits',
          `Screening ${patientIds.length} patients needs ${patientIds.length * GENERATION_COST} credits. Ask your organization to buy more through support.`,
        );
      }
      // One whose process died without a restart here (another instance) must not block the trial for good.
      await failInterruptedScreenings(ctx, STALE_SCREENING_MS, trial.id);
      const [run] = await ctx.db
        .insert(trialScreenings)
        .values({ trialId: trial.id, startedBy: user.id, total: patientIds.length, engine })
        .onConflictDoNothing()
        .returning();
      if (!run) throw new DomainError(409, 'invalid_request', 'A screening of this trial is already running');
      startScreening(ctx, run, user, criteria, patientIds);
      return reply.status(202).send({ screening: screeningView(run) });
    },
  );
}
