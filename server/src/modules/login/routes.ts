import { loginBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords.js';
import { findUserByEmail } from '../../auth/users.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { startSession } from '../../http/session-response.js';

export function loginRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/login',
    {
      config: { rateLimit: { max: ctx.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
      schema: { body: loginBody, response: { 200: userEnvelope, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema } },
    },
    async (request, reply) => {
      const { email, password } = request.body.user;
      if (ctx.loginLimiter.isBlocked(email)) {
        throw new DomainError(429, 'too_many_requests', 'Too many failed attempts for this account, try again later');
      }
      const user = await findUserByEmail(ctx.db, email);
      const ok = user ? await verifyPassword(user.passwordHash, password) : (await burnPasswordCheck(password), false);
      if (!user || !ok) {
        ctx.loginLimiter.recordFailure(email);
        throw new DomainError(401, 'invalid_credentials', 'Invalid credentials');
      }
      ctx.loginLimiter.reset(email);
      const { d_user } = await startSession(ctx, reply, user);
      return { d_user };
    },
  );
}
