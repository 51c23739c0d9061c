import { requireUser } from '../../http/authenticate.js';
import { z } from 'zod';
import type { App, AppContext } from '../../http/context.js';
import { errorResponses } from '../../http/responses.js';

const capabilitiesSchema = z.object({
  transcription: z.object({
    engine: z.enum(['local', 'openai', 'none']),
    id: z.string().optional(),
    demoQuality: z.boolean().optional(),
    languages: z.array(z.string()),
    note: z.string().optional(),
  }),
  generation: z.object({ engine: z.enum(['openai', 'local', 'composer']), model: z.string().optional(), usesAi: z.boolean() }),
  retention: z.object({ minutes: z.number() }),
  integration: z.object({ origins: z.array(z.string()) }),
});

/** What this server can do, so the app can say it plainly (e.g. which speech engine, in which languages). */
export function startRoutes(app: App, ctx: AppContext) {
  app.get('/start', { onRequest: requireUser(ctx), schema: { response: { 200: capabilitiesSchema, ...errorResponses(401) } } }, async () => ({
    transcription: ctx.transcriber.info,
    generation: ctx.textGenerator.info,
    retention: { minutes: ctx.config.retentionMinutes },
    integration: { origins: ctx.config.integrationOrigins },
  }));
}
