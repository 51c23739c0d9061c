import { loginBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { loginSourceOf } from '../../auth/login-limiter.js';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords.js';
import { findUserByEmail } from '../../auth/users.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { startSession } from '../../http/session-response.js';
import { mailExistingOwner } from '../signup/service.js';

/**
 * Password sign-in. Two limits apply: attempts per address (the route's rate limit) and a per-account back-off
 * that pauses unknown sources without stopping the clinician's own devices and addresses (auth/login-limiter.ts).
 * The back-off counts each attempt before its password is checked and forgets the count when it proves right.
 */
export function loginRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/login',
    {
      config: { rateLimit: { max: ctx.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
      schema: { body: loginBody, response: { 200: userEnvelope, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema } },
    },
    async (request, reply) => {
      const { email, password } = request.body.user;
      const user = await findUserByEmail(ctx.db, email);
      const source = loginSourceOf(request);
      const trust = await ctx.loginLimiter.trustOf(user?.id, source);
      // Counted before the password is checked, so concurrent guesses cannot all slip in ahead of the count.
      const attempt = await ctx.loginLimiter.reserveAttempt(email, trust);
      if (!attempt.allowed) {
        const seconds = attempt.retryAfterSeconds;
        reply.header('retry-after', String(seconds));
        const wait = `Too many failed sign-ins to this account; try again in ${Math.ceil(seconds / 60)} min`;
        throw new DomainError(429, 'too_many_requests', trust === 'unknown' ? `${wait}, or from a device you have signed in from before` : wait);
      }
      const ok = user ? await verifyPassword(user.passwordHash, password) : (await burnPasswordCheck(password), false);
      // A wrong password needs nothing more: the reservation above already counted it as a failure.
      if (!user || !ok) throw new DomainError(401, 'invalid_credentials', 'Invalid credentials');
      if (!user.emailConfirmedAt) {
        // An address never proven gives no session, and the same answer as a wrong password: a sign-in that worked
        // would tell whoever just asked for this account that the address had none, and let them use an account in
        // someone else's name. The address's owner is mailed the way to finish (choose the password through the mailbox).
        const work = mailExistingOwner(ctx, user, '/login').catch((err: unknown) => {
          request.log.error({ errorName: err instanceof Error ? err.name : typeof err }, 'unconfirmed sign-in mail not sent');
        });
        ctx.background.add(work);
        void work.finally(() => ctx.background.delete(work));
        throw new DomainError(401, 'invalid_credentials', 'Invalid credentials');
      }
      await ctx.loginLimiter.recordSuccess(email, user.id, trust, source);
      const { d_user } = await startSession(ctx, reply, user);
      return { d_user };
    },
  );
}
