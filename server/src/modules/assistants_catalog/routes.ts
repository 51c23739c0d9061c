import { and, asc, count, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { CATALOGUES, homeCatalogueOf, type Language } from '../../../../contract/constants.js';
import { consultationTypeSchema } from '../../../../contract/consultations.js';
import { errorResponses, noContent } from '../../http/responses.js';
import { assistantPins, consultationSessions } from '../../db/schema.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/language.js';
import { CATALOGUE_NAMES, CONSULTATION_TYPES, findConsultationType } from '../consultation_types/catalogue.js';
import { typeView } from '../consultation_types/routes.js';

const MAX_PINS = 12;
const RECOMMENDATIONS = 3;
const params = z.object({ typeId: z.string().min(1).max(100) });
const catalogueSchema = z.object({
  catalogues: z.array(z.object({ id: z.enum(CATALOGUES), name: z.string() })),
  home_catalogue: z.enum(CATALOGUES),
  assistants: z.array(consultationTypeSchema),
  custom_assistants: z.array(consultationTypeSchema),
  pins: z.array(z.string()),
  recommendations: z.array(z.string()),
});

/**
 * Spec §2 assistants catalogue and quick access: every assistant (consultation type) by country catalogue and
 * section, the clinician's pins, and recommendations (what they use most, then their country's public ones).
 */
export function assistantsCatalogRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/assistants_catalog';

  const pinsOf = async (userId: string) =>
    (
      await ctx.db
        .select({ id: assistantPins.consultationTypeId })
        .from(assistantPins)
        .where(eq(assistantPins.userId, userId))
        .orderBy(asc(assistantPins.createdAt))
    ).map((r) => r.id);

  app.get(base, { onRequest: preHandler, schema: { response: { 200: catalogueSchema, ...errorResponses(401) } } }, async (request) => {
    const user = currentUser(request);
    const lang = requestLanguage(request);
    const pins = (await pinsOf(user.id)).filter((id) => findConsultationType(id));
    const used = await ctx.db
      .select({ id: consultationSessions.consultationTypeId, n: count() })
      .from(consultationSessions)
      .where(eq(consultationSessions.userId, user.id))
      .groupBy(consultationSessions.consultationTypeId)
      .orderBy(desc(count()));
    const home = homeCatalogueOf(user.language as Language);
    const candidates = [
      ...used.map((u) => u.id),
      ...CONSULTATION_TYPES.filter((t) => t.section === 'public' && t.catalogue === home).map((t) => t.id),
      ...CONSULTATION_TYPES.filter((t) => t.section === 'public' && t.catalogue === 'international').map((t) => t.id),
    ];
    const recommendations = [...new Set(candidates)].filter((id) => findConsultationType(id) && !pins.includes(id)).slice(0, RECOMMENDATIONS);
    return {
      catalogues: CATALOGUES.map((id) => ({ id, name: CATALOGUE_NAMES[id][lang] })),
      home_catalogue: home,
      assistants: CONSULTATION_TYPES.map((t) => typeView(t, lang)),
      // Custom assistants are made for a clinician through support (custom document requests); none yet here.
      custom_assistants: [],
      pins,
      recommendations,
    };
  });

  app.put(
    `${base}/pins/:typeId`,
    { onRequest: preHandler, schema: { params, response: { 204: noContent('Pinned'), ...errorResponses(400, 401, 404, 409) } } },
    async (request, reply) => {
      const user = currentUser(request);
      if (!findConsultationType(request.params.typeId)) throw notFound('Unknown assistant');
      const pins = await pinsOf(user.id);
      if (!pins.includes(request.params.typeId) && pins.length >= MAX_PINS)
        throw new DomainError(409, 'invalid_request', `At most ${MAX_PINS} pinned assistants`);
      await ctx.db.insert(assistantPins).values({ userId: user.id, consultationTypeId: request.params.typeId }).onConflictDoNothing();
      return reply.status(204).send(null);
    },
  );

  app.delete(
    `${base}/pins/:typeId`,
    { onRequest: preHandler, schema: { params, response: { 204: noContent('Not pinned (any more)'), ...errorResponses(400, 401) } } },
    async (request, reply) => {
      await ctx.db
        .delete(assistantPins)
        .where(and(eq(assistantPins.userId, currentUser(request).id), eq(assistantPins.consultationTypeId, request.params.typeId)));
      return reply.status(204).send(null);
    },
  );
}
