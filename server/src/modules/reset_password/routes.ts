import { eq, sql } from 'drizzle-orm';
import { okEnvelope, resetPasswordConfirmBody, resetPasswordRequestBody, tokenParams } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { loginSourceOf } from '../../auth/login-limiter.js';
import { consumeOneTimeToken, createOneTimeToken, revokeOutstandingTokens } from '../../auth/one-time-tokens.js';
import { hashPassword } from '../../auth/passwords.js';
import { findUserByEmail } from '../../auth/users.js';
import type { Language } from '../../../../contract/account.js';
import type { Database } from '../../db/client.js';
import { recordSystemIdentities, users } from '../../db/schema.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { mailTemplates } from '../../mail/templates.js';

export const RESET_TTL_MINUTES = 60;

export function resetPasswordRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/reset_password',
    {
      config: { rateLimit: { max: 5, timeWindow: 60_000 } },
      schema: { body: resetPasswordRequestBody, response: { 202: okEnvelope, 400: apiErrorSchema } },
    },
    async (request, reply) => {
      // Nothing about the account is looked up, written or mailed before the answer: its content and its timing
      // are the same whether or not the e-mail has an account, and a slow mail server delays nobody.
      const work = mailResetLink(ctx, request.body.email).catch((err: unknown) => {
        // Neither the address nor the error's message (an SMTP refusal quotes the recipient) reaches the log.
        const code = err instanceof Error && 'code' in err ? String(err.code) : undefined;
        request.log.error({ errorName: err instanceof Error ? err.name : typeof err, code }, 'password reset mail not sent');
      });
      ctx.background.add(work);
      void work.finally(() => ctx.background.delete(work));
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
      // Hashed before the transaction: argon2 takes tens of milliseconds that no transaction should wait on.
      const passwordHash = await hashPassword(password);
      const user = await ctx.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        const userId = await consumeOneTimeToken(db, request.params.token, 'reset_password');
        if (!userId) return undefined;
        // Any other reset link still in the mailbox dies with this one.
        await revokeOutstandingTokens(db, userId, 'reset_password');
        const [updated] = await db
          .update(users)
          // The reset link reached this mailbox, which is what a confirmation would prove: the confirmation link,
          // retired below with every other sign-in link, is no longer needed.
          .set({ passwordHash, forcePasswordChange: false, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`, updatedAt: new Date() })
          .where(eq(users.id, userId))
          .returning({ id: users.id, email: users.email });
        // Links to record systems made with the old password go with it: a launch asks for the new one.
        await db.delete(recordSystemIdentities).where(eq(recordSystemIdentities.userId, userId));
        return updated;
      });
      if (!user) throw new DomainError(400, 'invalid_or_expired_token', 'This link is invalid or has expired');
      // Every session ends, and so does every sign-in link not yet used (a QR code minted by a stolen session).
      await ctx.sessions.revokeAllFor(user.id);
      // Whoever reset through the mailbox is the account's owner: earlier failed guesses no longer pause it, and
      // the devices and addresses trusted so far (perhaps someone else's) are forgotten; this one is remembered.
      await ctx.loginLimiter.clear(user.email);
      await ctx.loginLimiter.forgetSources(user.id);
      await ctx.loginLimiter.rememberSource(user.id, loginSourceOf(request));
      return { ok: true as const };
    },
  );
}

/** Mails a reset link when the e-mail has an account; for any other address it does nothing. */
async function mailResetLink(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const { token } = await createOneTimeToken(ctx.db, user.id, 'reset_password', RESET_TTL_MINUTES * 60);
  const link = `${ctx.config.publicUrl}/reset_password/${token}`;
  const mail = mailTemplates.resetPassword[user.language as Language](user.name, link, RESET_TTL_MINUTES);
  await ctx.mailer.send({ to: user.email, link, ...mail });
}
