import { sql } from 'drizzle-orm';
import type { App, AppContext } from '../../http/context.js';

export function healthzRoutes(app: App, ctx: AppContext) {
  app.get('/healthz', { config: { rateLimit: false } }, async (_request, reply) => {
    // Stopping: a proxy that checks health sends the next requests elsewhere.
    if (ctx.draining.aborted) return reply.status(503).header('connection', 'close').send({ status: 'stopping' });
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
}
