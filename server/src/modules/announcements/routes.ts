import { requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { requestLanguage } from '../../http/language.js';
import { z } from 'zod';
import { errorResponses } from '../../http/responses.js';
import { currentAnnouncements } from './service.js';

const announcementsEnvelope = z.object({
  announcements: z.array(z.object({ id: z.uuid(), title: z.string(), body: z.string(), published_at: z.iso.datetime() })),
});

/** The home's announcements carousel, in the interface's language. Support publishes with `npm run admin`. */
export function announcementsRoutes(app: App, ctx: AppContext) {
  app.get(
    '/v1/announcements',
    { onRequest: requireUser(ctx), schema: { response: { 200: announcementsEnvelope, ...errorResponses(401) } } },
    async (request) => ({ announcements: await currentAnnouncements(ctx.db, requestLanguage(request)) }),
  );
}
