import { z } from 'zod';
import { okEnvelope, signupBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { loginSourceOf } from '../../auth/login-limiter.js';
import type { App, AppContext } from '../../http/context.js';
import { startSession } from '../../http/session-response.js';
import { signUp } from './service.js';

/**
 * Without an invitation the answer is 202 { ok: true } whether or not the address has an account (the owner
 * is told by mail), so sign-up tells nobody who has an account here. An invitation, which proves the mailbox,
 * signs the new account in at once (201).
 */
export function signupRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/signup',
    {
      config: { rateLimit: { max: ctx.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        body: signupBody,
        response: {
          201: userEnvelope.extend({ token: z.string() }),
          202: okEnvelope,
          400: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          410: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const outcome = await signUp(ctx, request.body, loginSourceOf(request));
      if (outcome.kind === 'signed_in') return reply.status(201).send(await startSession(ctx, reply, outcome.user));
      const work = outcome.mail().catch((err: unknown) => {
        // Neither the address nor the error's message (an SMTP refusal quotes the recipient) reaches the log.
        const code = err instanceof Error && 'code' in err ? String(err.code) : undefined;
        request.log.error({ errorName: err instanceof Error ? err.name : typeof err, code }, 'sign-up mail not sent');
      });
      ctx.background.add(work);
      void work.finally(() => ctx.background.delete(work));
      return reply.status(202).send({ ok: true as const });
    },
  );
}
