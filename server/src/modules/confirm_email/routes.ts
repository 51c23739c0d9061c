import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { tokenParams, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { consumeOneTimeToken } from '../../auth/one-time-tokens.js';
import { users } from '../../db/schema.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { startSession } from '../../http/session-response.js';

export function confirmEmailRoutes(app: App, ctx: AppContext) {
  app.patch(
    '/v1/confirm_email/:token',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: { params: tokenParams, response: { 200: userEnvelope.extend({ token: z.string() }), 400: apiErrorSchema } },
    },
    async (request, reply) => {
      const userId = await consumeOneTimeToken(ctx.db, request.params.token, 'confirm_email');
      if (!userId) throw new DomainError(400, 'invalid_or_expired_token', 'This link is invalid or has expired');
      const [user] = await ctx.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, userId)).returning();
      return startSession(ctx, reply, user!);
    },
  );
}
