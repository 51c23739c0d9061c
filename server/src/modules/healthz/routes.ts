import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { App, AppContext } from '../../http/context.js';

const healthzResponse = z
  .object({ status: z.enum(['ok', 'stopping', 'unavailable']) })
  .describe('Whether this process serves: ok, or stopping / unavailable (503)');

export function healthzRoutes(app: App, ctx: AppContext) {
  app.get('/healthz', { config: { rateLimit: false }, schema: { response: { 200: healthzResponse, 503: healthzResponse } } }, async (_request, reply) => {
    // Stopping: a proxy that checks health sends the next requests elsewhere.
    if (ctx.draining.aborted)
      return reply
        .status(503)
        .header('connection', 'close')
        .send({ status: 'stopping' as const });
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    } catch {
      return reply.status(503).send({ status: 'unavailable' as const });
    }
  });
}
