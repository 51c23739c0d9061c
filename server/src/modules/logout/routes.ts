import type { App, AppContext } from '../../http/context.js';
import { currentAuth, requireUser } from '../../http/authenticate.js';
import { errorResponses, noContent } from '../../http/responses.js';

export function logoutRoutes(app: App, ctx: AppContext) {
  app.delete(
    '/v1/logout',
    { onRequest: requireUser(ctx), schema: { response: { 204: noContent('Signed out: the token no longer works'), ...errorResponses(401) } } },
    async (request, reply) => {
      await ctx.sessions.revoke(currentAuth(request).sessionId);
      return reply.status(204).send(null);
    },
  );
}
