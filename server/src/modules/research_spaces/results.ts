import type { onRequestAsyncHookHandler } from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Language } from '../../../../contract/constants.js';
import { clinicalTrials, evaluationResults, researchPatients, users, type DecidedOn } from '../../db/schema.js';
import { currentUser } from '../../http/authenticate.js';
import type { App } from '../../http/context.js';
import type { AppContext } from '../../app-context.js';
import { notFound } from '../../errors/domain-error.js';
import { errorResponses, fileResponse, noContent } from '../../http/responses.js';
import { resultSchema } from './schemas.js';
import { resultsCsv } from './results-csv.js';
import { machineChangedSinceDecision, resultView, spaceFor, trialIn, type SpaceRow } from './service.js';

const id = z.uuid({ error: 'invalid_id' });
const spaceParams = z.object({ spaceId: id });
const resultParams = spaceParams.extend({ resultId: id });
const query = z.object({ trial_id: id.optional() });
/**
 * What the reviewer decides after reading the screening: approve, decline or undo (`decision: null`), and a note.
 * `status` is the older form of the same call (approved or declined decides; in_review or requires_review undoes).
 */
const body = z
  .object({
    result: z
      .object({
        decision: z.enum(['approved', 'declined']).nullable().optional(),
        status: z.enum(['approved', 'declined', 'in_review', 'requires_review']).optional(),
        note: z.string().max(2000).optional(),
      })
      .strict()
      .refine((r) => r.decision !== undefined || r.status !== undefined || r.note !== undefined, { message: 'Send a decision or a note' })
      .refine((r) => r.decision === undefined || r.status === undefined, { message: 'Send decision or status, not both' }),
  })
  .strict();

/** The screening's verdict as the row holds it at this instant, taken in the same statement as the decision. */
const verdictNow = sql<DecidedOn>`jsonb_build_object('pre_evaluation', ${evaluationResults.preEvaluation}, 'verdicts', coalesce((select jsonb_object_agg(c->>'criterion_id', c->>'verdict') from jsonb_array_elements(${evaluationResults.criteria}) as c), '{}'::jsonb))`;

export function resultsRoutes(app: App, ctx: AppContext, preHandler: onRequestAsyncHookHandler) {
  const base = '/v1/research_spaces/:spaceId/results';

  async function resultsOf(space: SpaceRow, filter: { trialId?: string; resultId?: string } = {}) {
    return (
      ctx.db
        .select({ result: evaluationResults, label: researchPatients.label, trialName: clinicalTrials.name, deciderName: users.name })
        .from(evaluationResults)
        .innerJoin(researchPatients, eq(researchPatients.id, evaluationResults.patientId))
        .innerJoin(clinicalTrials, eq(clinicalTrials.id, evaluationResults.trialId))
        // By id, not by membership: a member who left stays the author of what they decided.
        .leftJoin(users, eq(users.id, evaluationResults.decidedBy))
        .where(
          and(
            eq(clinicalTrials.spaceId, space.id),
            filter.trialId ? eq(evaluationResults.trialId, filter.trialId) : undefined,
            filter.resultId ? eq(evaluationResults.id, filter.resultId) : undefined,
          ),
        )
        // Per trial, the likeliest patients first; those a critical criterion rules out last, whatever their score.
        .orderBy(
          asc(clinicalTrials.name),
          asc(sql`${evaluationResults.preEvaluation} = 'not_approved'`),
          sql`${evaluationResults.relevance} desc nulls last`,
          asc(researchPatients.createdAt),
        )
    );
  }

  async function own(space: SpaceRow, resultId: string) {
    const [row] = await resultsOf(space, { resultId });
    if (!row) throw notFound('Result not found');
    return row;
  }

  app.get(
    base,
    {
      onRequest: preHandler,
      schema: { params: spaceParams, querystring: query, response: { 200: z.object({ results: z.array(resultSchema) }), ...errorResponses(400, 401, 404) } },
    },
    async (request) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      if (request.query.trial_id) await trialIn(ctx.db, space, request.query.trial_id);
      return { results: (await resultsOf(space, { trialId: request.query.trial_id })).map((r) => resultView(r.result, r.label, r.deciderName)) };
    },
  );

  app.get(
    `${base}.csv`,
    {
      onRequest: preHandler,
      schema: {
        params: spaceParams,
        querystring: query.extend({ trial_id: id }),
        response: { 200: fileResponse("The trial's results as a spreadsheet", ['text/csv']), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const space = await spaceFor(ctx.db, user, request.params.spaceId);
      const trial = await trialIn(ctx.db, space, request.query.trial_id);
      const rows = await resultsOf(space, { trialId: trial.id });
      const csv = resultsCsv(
        trial.name,
        rows.map(({ result: r, label, deciderName }) => ({
          patient: label,
          preEvaluation: r.preEvaluation,
          met: r.criteriaMet,
          total: r.criteriaTotal,
          relevance: r.relevance,
          status: r.status,
          explanation: r.explanation,
          createdAt: r.createdAt,
          criteria: r.criteria,
          decision: r.decision,
          note: r.decisionNote,
          decidedBy: r.decidedBy ? (deciderName ?? '') : null,
          decidedAt: r.decidedAt,
          machineChanged: machineChangedSinceDecision(r),
        })),
        user.language as Language,
      );
      const fileName = `${
        trial.name
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .trim()
          .replace(/\s+/g, '-')
          .slice(0, 80) || 'trial'
      }-results.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="results.csv"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.put(
    `${base}/:resultId`,
    { onRequest: preHandler, schema: { params: resultParams, body, response: { 200: z.object({ result: resultSchema }), ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const user = currentUser(request);
      const space = await spaceFor(ctx.db, user, request.params.spaceId);
      const found = await own(space, request.params.resultId);
      const { decision: sent, status, note } = request.body.result;
      const decision = sent !== undefined ? sent : status === undefined ? undefined : status === 'approved' || status === 'declined' ? status : null;
      const after = { decision: decision === undefined ? found.result.decision : decision, note: note === undefined ? found.result.decisionNote : note.trim() };
      // Whoever last decided or wrote the note is its author; a result with neither has none.
      const authored = Boolean(after.decision || after.note);
      const [row] = await ctx.db
        .update(evaluationResults)
        .set({
          ...(decision === undefined ? {} : { decision, decidedOn: decision ? verdictNow : null }),
          ...(note === undefined ? {} : { decisionNote: after.note }),
          decidedBy: authored ? user.id : null,
          decidedAt: authored ? new Date() : null,
        })
        .where(eq(evaluationResults.id, found.result.id))
        .returning();
      return { result: resultView(row!, found.label, authored ? user.name : null) };
    },
  );

  app.delete(
    `${base}/:resultId`,
    { onRequest: preHandler, schema: { params: resultParams, response: { 204: noContent('Result deleted'), ...errorResponses(400, 401, 404) } } },
    async (request, reply) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      const found = await own(space, request.params.resultId);
      await ctx.db.delete(evaluationResults).where(eq(evaluationResults.id, found.result.id));
      ctx.requestScrub();
      return reply.status(204).send(null);
    },
  );
}
