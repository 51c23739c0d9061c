import { tokenBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { spendIntegrationToken } from '../../auth/integration-tokens.js';
import { findUserByEmail } from '../../auth/users.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { startSession } from '../../http/session-response.js';

/**
 * An integrating system (a hospital EHR) signs a short JWT with the shared INTEGRATION_KEY naming the
 * clinician by e-mail (`email` claim, or `sub`), with `jti`, `iat` and an `exp` at most 5 minutes later; each
 * token signs in once (auth/integration-tokens.ts), and only into an account whose address is proven. No key
 * configured: the door is shut.
 */
export function signedTokenLoginRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/signed_token_login',
    {
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: { body: tokenBody, response: { 200: userEnvelope, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 503: apiErrorSchema } },
    },
    async (request, reply) => {
      if (!ctx.config.integrationKey) {
        throw new DomainError(503, 'integration_not_configured', 'Sign-in from other systems is not configured');
      }
      const email = await spendIntegrationToken(ctx.db, request.body.token, ctx.config.integrationKey);
      const user = await findUserByEmail(ctx.db, email);
      if (!user) throw new DomainError(401, 'invalid_or_expired_token', 'This link is invalid or has expired');
      // The record system vouches for the address, not for whoever signed up with it here: an account whose address
      // was never proven (someone may have registered a clinician's address before them) is not opened on its word.
      if (!user.emailConfirmedAt) {
        throw new DomainError(
          403,
          'email_not_confirmed',
          "This account's e-mail address is not confirmed yet: open the confirmation mail, or reset the password, then sign in again from the record system",
        );
      }
      const { d_user } = await startSession(ctx, reply, user);
      return { d_user };
    },
  );
}
