import { z } from 'zod';
import { signupBody, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { loginSourceOf } from '../../auth/login-limiter.js';
import type { App, AppContext } from '../../http/context.js';
import { startSession } from '../../http/session-response.js';
import { signUp } from './service.js';

export function signupRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/signup',
    {
      config: { rateLimit: { max: ctx.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        body: signupBody,
        response: { 201: userEnvelope.extend({ token: z.string() }), 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 410: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await signUp(ctx, request.body);
      // The device and address that created the account with its password count as the clinician's own.
      await ctx.loginLimiter.rememberSource(user.id, loginSourceOf(request));
      const session = await startSession(ctx, reply, user);
      return reply.status(201).send(session);
    },
  );
}
