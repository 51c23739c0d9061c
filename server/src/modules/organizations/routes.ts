import { organizationsEnvelope } from '../../../../contract/account.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { listUserOrganizations } from './service.js';

export function organizationsRoutes(app: App, ctx: AppContext) {
  app.get(
    '/v1/organizations',
    { preHandler: requireUser(ctx), schema: { response: { 200: organizationsEnvelope } } },
    async (request) => ({ organizations: await listUserOrganizations(ctx.db, currentUser(request).id) }),
  );
}
