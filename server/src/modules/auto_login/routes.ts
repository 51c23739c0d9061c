import { tokenBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { consumeOneTimeToken } from '../../auth/one-time-tokens.js';
import { findUserById } from '../../auth/users.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { startSession } from '../../http/session-response.js';

export function autoLoginRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/auto_login',
    {
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: { body: tokenBody, response: { 200: userEnvelope, 400: apiErrorSchema, 401: apiErrorSchema } },
    },
    async (request, reply) => {
      const userId = await consumeOneTimeToken(ctx.db, request.body.token, 'qr_login');
      const user = userId ? await findUserById(ctx.db, userId) : undefined;
      if (!user) throw new DomainError(401, 'invalid_or_expired_token', 'This link is invalid or has expired');
      const { d_user } = await startSession(ctx, reply, user);
      return { d_user };
    },
  );
}
