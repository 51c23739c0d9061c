import { z } from 'zod';
import { currentUser, requireUser } from '../../../http/authenticate.js';
import type { App, AppContext } from '../../../http/context.js';
import { notFound } from '../../../http/errors.js';
import { errorResponses, noContent } from '../../../http/responses.js';
import { requireMembership } from '../service.js';
import { deleteEndpoint, endpointView, findEndpoint, saveEndpoint } from './service.js';

const params = z.object({ organizationId: z.uuid({ error: 'invalid_id' }) });
const body = z
  .object({
    base_url: z.string().trim().min(1).max(2000),
    auth: z.enum(['none', 'bearer', 'backend_services']),
    token: z.string().trim().max(8000).optional(),
    client_id: z.string().trim().min(1).max(500).optional(),
    scope: z.string().trim().max(1000).optional(),
    launch_client_id: z.string().trim().max(500).optional(),
    require_sign_off: z.boolean().optional().describe('Send documents to the record only once signed; unchanged when left out'),
  })
  .strict();

const endpointEnvelope = z.object({
  fhir_endpoint: z
    .object({
      base_url: z.string(),
      auth: z.enum(['none', 'bearer', 'backend_services']),
      client_id: z.string().nullable(),
      scope: z.string().nullable(),
      has_token: z.boolean(),
      jwks_url: z.string().nullable(),
      launch_client_id: z.string().nullable(),
      require_sign_off: z.boolean().describe('Whether documents go to the record only once their clinician signed them'),
      launch_url: z.string(),
      redirect_url: z.string(),
      updated_at: z.iso.datetime(),
    })
    .nullable()
    .describe('null when the organization has no record system'),
});

/** An organization's record system: its admins set it; members only learn whether there is one (GET /v1/account). */
export function fhirEndpointRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/organizations/:organizationId/fhir_endpoint';

  app.get(base, { onRequest: preHandler, schema: { params, response: { 200: endpointEnvelope, ...errorResponses(400, 401, 403, 404) } } }, async (request) => {
    const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
    return { fhir_endpoint: endpointView(await findEndpoint(ctx.db, m.organizationId), ctx.config.publicUrl) };
  });

  app.put(
    base,
    { onRequest: preHandler, schema: { params, body, response: { 200: endpointEnvelope, ...errorResponses(400, 401, 403, 404, 502) } } },
    async (request) => {
      const user = currentUser(request);
      const m = await requireMembership(ctx.db, user, request.params.organizationId, 'admin');
      const row = await saveEndpoint(ctx, m.organizationId, user.id, request.body);
      return { fhir_endpoint: endpointView(row, ctx.config.publicUrl) };
    },
  );

  app.delete(
    base,
    { onRequest: preHandler, schema: { params, response: { 204: noContent('Removed'), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      await deleteEndpoint(ctx.db, m.organizationId);
      return reply.status(204).send(null);
    },
  );

  // Public, as SMART Backend Services expects: the record system fetches the key that signs our client assertions.
  app.get(
    `${base}/jwks.json`,
    {
      schema: {
        params,
        response: {
          200: z.object({ keys: z.array(z.record(z.string(), z.string())) }).describe('The JSON Web Key Set with the public key of our client assertions'),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => {
      const row = await findEndpoint(ctx.db, request.params.organizationId);
      if (!row?.publicJwk) throw notFound('No key');
      return { keys: [row.publicJwk] };
    },
  );
}
