import type { onRequestAsyncHookHandler } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Language } from '../../../../contract/constants.js';
import { clinicalTrials, evaluationResults, researchPatients } from '../../db/schema.js';
import { currentUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { resultsCsv } from './results-csv.js';
import { resultView, spaceFor, trialIn, type SpaceRow } from './service.js';

const id = z.uuid({ error: 'invalid_id' });
const spaceParams = z.object({ spaceId: id });
const resultParams = spaceParams.extend({ resultId: id });
const query = z.object({ trial_id: id.optional() });
/** What the researcher decides after reading the screening. */
const body = z.object({ result: z.object({ status: z.enum(['approved', 'declined', 'in_review', 'requires_review']) }).strict() }).strict();

export function resultsRoutes(app: App, ctx: AppContext, preHandler: onRequestAsyncHookHandler) {
  const base = '/v1/research_spaces/:spaceId/results';

  async function resultsOf(space: SpaceRow, filter: { trialId?: string; resultId?: string } = {}) {
    return ctx.db
      .select({ result: evaluationResults, label: researchPatients.label, trialName: clinicalTrials.name })
      .from(evaluationResults)
      .innerJoin(researchPatients, eq(researchPatients.id, evaluationResults.patientId))
      .innerJoin(clinicalTrials, eq(clinicalTrials.id, evaluationResults.trialId))
      .where(
        and(
          eq(clinicalTrials.spaceId, space.id),
          filter.trialId ? eq(evaluationResults.trialId, filter.trialId) : undefined,
          filter.resultId ? eq(evaluationResults.id, filter.resultId) : undefined,
        ),
      )
      .orderBy(asc(clinicalTrials.name), asc(researchPatients.createdAt));
  }

  async function own(space: SpaceRow, resultId: string) {
    const [row] = await resultsOf(space, { resultId });
    if (!row) throw notFound('Result not found');
    return row;
  }

  app.get(base, { onRequest: preHandler, schema: { params: spaceParams, querystring: query } }, async (request) => {
    const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
    if (request.query.trial_id) await trialIn(ctx.db, space, request.query.trial_id);
    return { results: (await resultsOf(space, { trialId: request.query.trial_id })).map((r) => resultView(r.result, r.label)) };
  });

  app.get(`${base}.csv`, { onRequest: preHandler, schema: { params: spaceParams, querystring: query.extend({ trial_id: id }) } }, async (request, reply) => {
    const user = currentUser(request);
    const space = await spaceFor(ctx.db, user, request.params.spaceId);
    const trial = await trialIn(ctx.db, space, request.query.trial_id);
    const rows = await resultsOf(space, { trialId: trial.id });
    const csv = resultsCsv(
      trial.name,
      rows.map(({ result: r, label }) => ({ patient: label, preEvaluation: r.preEvaluation, met: r.criteriaMet, total: r.criteriaTotal, status: r.status, explanation: r.explanation, createdAt: r.createdAt, criteria: r.criteria })),
      user.language as Language,
    );
    const fileName = `${trial.name.replace(/[^\p{L}\p{N} _-]/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'trial'}-results.csv`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="results.csv"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  app.put(`${base}/:resultId`, { onRequest: preHandler, schema: { params: resultParams, body } }, async (request) => {
    const user = currentUser(request);
    const space = await spaceFor(ctx.db, user, request.params.spaceId);
    const found = await own(space, request.params.resultId);
    const decided = ['approved', 'declined'].includes(request.body.result.status);
    const [row] = await ctx.db
      .update(evaluationResults)
      .set({ status: request.body.result.status, reviewedBy: decided ? user.id : null, reviewedAt: decided ? new Date() : null })
      .where(eq(evaluationResults.id, found.result.id))
      .returning();
    return { result: resultView(row!, found.label) };
  });

  app.delete(`${base}/:resultId`, { onRequest: preHandler, schema: { params: resultParams } }, async (request, reply) => {
    const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
    const found = await own(space, request.params.resultId);
    await ctx.db.delete(evaluationResults).where(eq(evaluationResults.id, found.result.id));
    ctx.requestScrub();
    return reply.status(204).send();
  });
}
