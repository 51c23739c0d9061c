import { z } from 'zod';
import { accountUpdateBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { toDUser } from '../../auth/users.js';
import { currentAuth, currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { deleteAccount, updateAccount } from './service.js';

export function accountRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const errors = { 400: apiErrorSchema, 401: apiErrorSchema };

  app.get('/v1/account', { onRequest: preHandler, schema: { response: { 200: userEnvelope, ...errors } } }, async (request) => ({
    d_user: toDUser(currentUser(request)),
  }));

  app.put('/v1/account', { onRequest: preHandler, schema: { body: accountUpdateBody, response: { 200: userEnvelope, ...errors } } }, async (request) => {
    const { user, sessionId } = currentAuth(request);
    return { d_user: toDUser(await updateAccount(ctx, user, sessionId, request.body.user)) };
  });

  app.delete('/v1/account', { onRequest: preHandler, schema: { response: { 204: z.null(), 409: apiErrorSchema, ...errors } } }, async (request, reply) => {
    await deleteAccount(ctx, currentUser(request));
    return reply.status(204).send(null);
  });
}
