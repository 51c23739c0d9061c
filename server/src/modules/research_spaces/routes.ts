import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { clinicalTrials, researchSpaces, trialCriteria } from '../../db/schema.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { CRITERION_TYPES } from './criteria.js';
import { generateCriteria } from './criteria-extraction.js';
import { patientsRoutes } from './patients.js';
import { resultsRoutes } from './results.js';
import { screeningsRoutes } from './screenings.js';
import {
  canDeleteSpace,
  criteriaOf,
  criteriaOfTrials,
  criterionView,
  researchBlobPrefix,
  spaceFor,
  spaceView,
  trialIn,
  trialView,
  visibleTo,
} from './service.js';
import { describeErrorSafely } from '../../http/safe-errors.js';
import { errorResponses, noContent } from '../../http/responses.js';
import { criterionSchema, spaceSchema, trialSchema } from './schemas.js';

const oneSpace = z.object({ research_space: spaceSchema });
const oneTrial = z.object({ trial: trialSchema });
const oneCriterion = z.object({ criterion: criterionSchema });

const id = z.uuid({ error: 'invalid_id' });
const spaceParams = z.object({ spaceId: id });
const trialParams = spaceParams.extend({ trialId: id });
const criterionParams = trialParams.extend({ criterionId: id });
const spaceBody = z.object({ research_space: z.object({ name: z.string().trim().min(1).max(200) }).strict() }).strict();
const trialBody = z
  .object({ trial: z.object({ name: z.string().trim().min(1).max(300), description: z.string().trim().max(50_000).default('') }).strict() })
  .strict();
const criterionBody = z
  .object({
    criterion: z.object({ definition: z.string().trim().min(3).max(1000), type: z.enum(CRITERION_TYPES), needs_review: z.boolean().default(false) }).strict(),
  })
  .strict();

/** At most this many criteria per trial: beyond it the list is a protocol, not a screening checklist. */
const MAX_CRITERIA = 100;

/**
 * Research spaces (spec §2 and §3): a space holds clinical trials with their criteria, patients' PDFs and the
 * screening results. Every call first finds the space among those the user may see.
 */
export function researchSpacesRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/research_spaces';

  app.get(
    base,
    { onRequest: preHandler, schema: { response: { 200: z.object({ research_spaces: z.array(spaceSchema) }), ...errorResponses(401) } } },
    async (request) => {
      const user = currentUser(request);
      const rows = await ctx.db.select().from(researchSpaces).where(visibleTo(user)).orderBy(desc(researchSpaces.createdAt));
      return { research_spaces: rows.map((row) => spaceView(row, user)) };
    },
  );

  app.post(base, { onRequest: preHandler, schema: { body: spaceBody, response: { 201: oneSpace, ...errorResponses(400, 401) } } }, async (request, reply) => {
    const user = currentUser(request);
    const [row] = await ctx.db
      .insert(researchSpaces)
      .values({ name: request.body.research_space.name, createdBy: user.id, organizationId: user.organizationId })
      .returning();
    return reply.status(201).send({ research_space: spaceView(row!, user) });
  });

  app.get(
    `${base}/:spaceId`,
    { onRequest: preHandler, schema: { params: spaceParams, response: { 200: oneSpace, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const user = currentUser(request);
      return { research_space: spaceView(await spaceFor(ctx.db, user, request.params.spaceId), user) };
    },
  );

  app.put(
    `${base}/:spaceId`,
    { onRequest: preHandler, schema: { params: spaceParams, body: spaceBody, response: { 200: oneSpace, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const user = currentUser(request);
      const space = await spaceFor(ctx.db, user, request.params.spaceId);
      const [row] = await ctx.db.update(researchSpaces).set({ name: request.body.research_space.name }).where(eq(researchSpaces.id, space.id)).returning();
      return { research_space: spaceView(row!, user) };
    },
  );

  app.delete(
    `${base}/:spaceId`,
    {
      onRequest: preHandler,
      schema: { params: spaceParams, response: { 204: noContent('Deleted, with its trials, patients and results'), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const space = await spaceFor(ctx.db, user, request.params.spaceId);
      if (!canDeleteSpace(space, user))
        throw new DomainError(403, 'forbidden', "Only the space's creator or an administrator of the organization can delete it");
      await ctx.db.delete(researchSpaces).where(eq(researchSpaces.id, space.id));
      await ctx.blobs.deletePrefix(researchBlobPrefix(space.id));
      ctx.requestScrub();
      return reply.status(204).send(null);
    },
  );

  // Trials
  app.get(
    `${base}/:spaceId/trials`,
    { onRequest: preHandler, schema: { params: spaceParams, response: { 200: z.object({ trials: z.array(trialSchema) }), ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      const trials = await ctx.db.select().from(clinicalTrials).where(eq(clinicalTrials.spaceId, space.id)).orderBy(desc(clinicalTrials.createdAt));
      const criteria = await criteriaOfTrials(
        ctx.db,
        trials.map((t) => t.id),
      );
      return { trials: trials.map((t) => trialView(t, criteria.get(t.id) ?? [])) };
    },
  );

  app.post(
    `${base}/:spaceId/trials`,
    { onRequest: preHandler, schema: { params: spaceParams, body: trialBody, response: { 201: oneTrial, ...errorResponses(400, 401, 404) } } },
    async (request, reply) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      const [row] = await ctx.db
        .insert(clinicalTrials)
        .values({ spaceId: space.id, ...request.body.trial })
        .returning();
      return reply.status(201).send({ trial: trialView(row!, []) });
    },
  );

  app.get(
    `${base}/:spaceId/trials/:trialId`,
    { onRequest: preHandler, schema: { params: trialParams, response: { 200: oneTrial, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      return { trial: trialView(trial, await criteriaOf(ctx.db, trial.id)) };
    },
  );

  app.put(
    `${base}/:spaceId/trials/:trialId`,
    { onRequest: preHandler, schema: { params: trialParams, body: trialBody, response: { 200: oneTrial, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      const [row] = await ctx.db
        .update(clinicalTrials)
        .set({ ...request.body.trial, updatedAt: new Date() })
        .where(eq(clinicalTrials.id, trial.id))
        .returning();
      return { trial: trialView(row!, await criteriaOf(ctx.db, trial.id)) };
    },
  );

  app.delete(
    `${base}/:spaceId/trials/:trialId`,
    {
      onRequest: preHandler,
      schema: { params: trialParams, response: { 204: noContent('Deleted, with its criteria, screenings and results'), ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      // Its screenings' results (patients' evidence and explanations) go with it: on PGlite their bytes are
      // scrubbed from the files too, and the audit log records the deletion as one of screening results.
      await ctx.db.delete(clinicalTrials).where(eq(clinicalTrials.id, trial.id));
      ctx.requestScrub();
      return reply.status(204).send(null);
    },
  );

  // Criteria
  async function nextPosition(trialId: string, adding: number) {
    const existing = await criteriaOf(ctx.db, trialId);
    if (existing.length + adding > MAX_CRITERIA) throw new DomainError(409, 'invalid_request', `A trial can have at most ${MAX_CRITERIA} criteria`);
    return Math.max(-1, ...existing.map((c) => c.position)) + 1;
  }

  app.post(
    `${base}/:spaceId/trials/:trialId/criteria`,
    { onRequest: preHandler, schema: { params: trialParams, body: criterionBody, response: { 201: oneCriterion, ...errorResponses(400, 401, 404, 409) } } },
    async (request, reply) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      const c = request.body.criterion;
      const [row] = await ctx.db
        .insert(trialCriteria)
        .values({ trialId: trial.id, definition: c.definition, type: c.type, needsReview: c.needs_review, position: await nextPosition(trial.id, 1) })
        .returning();
      return reply.status(201).send({ criterion: criterionView(row!) });
    },
  );

  app.put(
    `${base}/:spaceId/trials/:trialId/criteria/:criterionId`,
    { onRequest: preHandler, schema: { params: criterionParams, body: criterionBody, response: { 200: oneCriterion, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      const c = request.body.criterion;
      const [row] = await ctx.db
        .update(trialCriteria)
        .set({ definition: c.definition, type: c.type, needsReview: c.needs_review })
        .where(and(eq(trialCriteria.id, request.params.criterionId), eq(trialCriteria.trialId, trial.id)))
        .returning();
      if (!row) throw notFound('Criterion not found');
      return { criterion: criterionView(row) };
    },
  );

  app.delete(
    `${base}/:spaceId/trials/:trialId/criteria/:criterionId`,
    { onRequest: preHandler, schema: { params: criterionParams, response: { 204: noContent('Criterion deleted'), ...errorResponses(400, 401, 404) } } },
    async (request, reply) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      const [row] = await ctx.db
        .delete(trialCriteria)
        .where(and(eq(trialCriteria.id, request.params.criterionId), eq(trialCriteria.trialId, trial.id)))
        .returning();
      if (!row) throw notFound('Criterion not found');
      return reply.status(204).send(null);
    },
  );

  /** Automatic generation: criteria read from the trial's description are added (those already there are skipped). */
  app.post(
    `${base}/:spaceId/trials/:trialId/criteria/generate`,
    {
      onRequest: preHandler,
      schema: {
        params: trialParams,
        response: {
          201: z.object({
            criteria: z.array(criterionSchema).describe('The criteria added (those already on the trial are skipped)'),
            engine: z.string().describe("The engine that read the description, or 'offline' when its lists were read without one"),
          }),
          ...errorResponses(400, 401, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const trial = await trialIn(ctx.db, await spaceFor(ctx.db, currentUser(request), request.params.spaceId), request.params.trialId);
      if (!trial.description.trim()) throw new DomainError(400, 'invalid_request', 'Write the trial description first', { 'trial.description': 'required' });
      const existing = new Set((await criteriaOf(ctx.db, trial.id)).map((c) => c.definition.trim().toLowerCase()));
      const generated = await generateCriteria(ctx.textGenerator, trial.description, (err) =>
        request.log.warn({ err: describeErrorSafely(err) }, 'criteria generation fell back to the description’s lists'),
      );
      const drafts = generated.criteria.filter((d) => !existing.has(d.definition.toLowerCase()));
      if (drafts.length === 0 && existing.size === 0) {
        throw new DomainError(
          422,
          'invalid_request',
          "No criteria were found in the description. List them under 'Inclusion criteria' and 'Exclusion criteria', or add them one by one.",
        );
      }
      let position = drafts.length ? await nextPosition(trial.id, drafts.length) : 0;
      const rows = drafts.length
        ? await ctx.db
            .insert(trialCriteria)
            .values(drafts.map((d) => ({ trialId: trial.id, definition: d.definition, type: d.type, position: position++ })))
            .returning()
        : [];
      return reply.status(201).send({ criteria: rows.map(criterionView), engine: generated.engine });
    },
  );

  patientsRoutes(app, ctx, preHandler);
  screeningsRoutes(app, ctx, preHandler);
  resultsRoutes(app, ctx, preHandler);
}
