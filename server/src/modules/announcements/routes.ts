import { requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { requestLanguage } from '../../http/language.js';
import { currentAnnouncements } from './service.js';

/** The home's announcements carousel, in the interface's language. Support publishes with `npm run admin`. */
export function announcementsRoutes(app: App, ctx: AppContext) {
  app.get('/v1/announcements', { onRequest: requireUser(ctx) }, async (request) => ({ announcements: await currentAnnouncements(ctx.db, requestLanguage(request)) }));
}
