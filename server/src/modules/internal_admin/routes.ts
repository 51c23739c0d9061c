import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { createOrganizationWithAdmin } from '../organizations/service.js';

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
    '/internal/admin/organizations',
    { schema: { body: z.object({ name: z.string().trim().min(1).max(200), admin_email: z.email().max(254) }) } },
    async (request) =>
      createOrganizationWithAdmin(ctx.db, {
        name: request.body.name,
        adminEmail: request.body.admin_email,
        publicUrl: ctx.config.publicUrl,
      }),
  );
}
