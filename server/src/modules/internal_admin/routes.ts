import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { runCommand, UsageError } from '../../admin/commands.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';

/**
 * The admin CLI's way in while this server holds the embedded database (PGlite allows one process).
 * Loopback only, and only with the random key this process wrote to its lock file in DATA_DIR.
 */
export function internalAdminRoutes(app: App, ctx: AppContext, adminKey: string) {
  const expected = Buffer.from(adminKey);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/internal/')) return;
    const given = Buffer.from(String(request.headers['x-admin-key'] ?? ''));
    const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.socket.remoteAddress ?? '');
    if (!loopback || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new DomainError(404, 'not_found', 'Not found');
    }
  });

  app.post(
    '/internal/admin/run',
    { schema: { body: z.object({ command: z.string().max(50), args: z.record(z.string(), z.unknown()) }) } },
    async (request) => {
      try {
        return { lines: await runCommand(ctx.db, ctx.config, request.body.command, request.body.args) };
      } catch (err) {
        if (err instanceof UsageError) throw new DomainError(400, 'invalid_request', err.message);
        throw err;
      }
    },
  );
}
