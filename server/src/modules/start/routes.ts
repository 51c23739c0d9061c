import { requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';

/** What this server can do, so the app can say it plainly (e.g. which speech engine, in which languages). */
export function startRoutes(app: App, ctx: AppContext) {
  app.get('/start', { onRequest: requireUser(ctx) }, async () => ({ transcription: ctx.transcriber.info, generation: ctx.textGenerator.info, retention: { minutes: ctx.config.retentionMinutes }, integration: { origins: ctx.config.integrationOrigins } }));
}
