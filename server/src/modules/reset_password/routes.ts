import { eq } from 'drizzle-orm';
import { okEnvelope, resetPasswordConfirmBody, resetPasswordRequestBody, tokenParams } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { consumeOneTimeToken, createOneTimeToken } from '../../auth/one-time-tokens.js';
import { hashPassword } from '../../auth/passwords.js';
import { findUserByEmail } from '../../auth/users.js';
import type { Language } from '../../../../contract/account.js';
import { users } from '../../db/schema.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { mailTemplates } from '../../mail/templates.js';

const RESET_TTL_MINUTES = 60;

export function resetPasswordRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/reset_password',
    {
      config: { rateLimit: { max: 5, timeWindow: 60_000 } },
      schema: { body: resetPasswordRequestBody, response: { 202: okEnvelope, 400: apiErrorSchema } },
    },
    async (request, reply) => {
      const user = await findUserByEmail(ctx.db, request.body.email);
      if (user) {
        const { token } = await createOneTimeToken(ctx.db, user.id, 'reset_password', RESET_TTL_MINUTES * 60);
        const link = `${ctx.config.publicUrl}/reset_password/${token}`;
        const mail = mailTemplates.resetPassword[user.language as Language](user.name, link, RESET_TTL_MINUTES);
        await ctx.mailer.send({ to: user.email, link, ...mail });
      }
      // The same answer either way, so this form cannot be used to find out who has an account.
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.patch(
    '/v1/reset_password/:token',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: { params: tokenParams, body: resetPasswordConfirmBody, response: { 200: okEnvelope, 400: apiErrorSchema } },
    },
    async (request) => {
      const { password, password_confirmation } = request.body;
      if (password !== password_confirmation) {
        throw new DomainError(400, 'invalid_request', 'The given passwords do not match', {
          password_confirmation: 'passwords_do_not_match',
        });
      }
      const userId = await consumeOneTimeToken(ctx.db, request.params.token, 'reset_password');
      if (!userId) throw new DomainError(400, 'invalid_or_expired_token', 'This link is invalid or has expired');
      await ctx.db
        .update(users)
        .set({ passwordHash: await hashPassword(password), forcePasswordChange: false, updatedAt: new Date() })
        .where(eq(users.id, userId));
      await ctx.sessions.revokeAllFor(userId);
      return { ok: true as const };
    },
  );
}
