import { z } from 'zod';
import type { Language } from '../../../../contract/constants.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { debitGeneration, refundGeneration } from '../credits/service.js';

const body = z.object({
  data: z.union([z.string().max(100_000), z.record(z.string(), z.union([z.string().max(50_000), z.number(), z.boolean()]))]),
  template: z.string().min(1).max(50_000),
  model: z.string().max(100).optional(),
  temperature: z.number().min(0).max(2).optional(),
});

/**
 * Spec §7 POST /generate: fills a template with data. An AI engine writes it from the template; the offline
 * composer fills `{{name}}` placeholders and marks what is missing.
 */
export function generateRoutes(app: App, ctx: AppContext) {
  app.post('/generate', { preHandler: requireUser(ctx), schema: { body }, config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async (request) => {
    const user = currentUser(request);
    const { data, template, model, temperature } = request.body;
    const extraData = typeof data === 'string' ? { text: data } : Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
    const charged = ctx.textGenerator.info.usesAi ? await debitGeneration(ctx.db, user) : undefined;
    let text = '';
    try {
      for await (const delta of ctx.textGenerator.write({
        documentKind: 'custom',
        language: user.language as Language,
        transcript: '',
        data: {},
        extraData,
        template,
        clinician: { name: user.name },
        date: new Date(),
        options: { model, temperature },
      })) {
        text += delta;
      }
    } catch (err) {
      if (charged) await refundGeneration(ctx.db, user, charged.ledgerId);
      request.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'generation failed');
      throw new DomainError(502, 'generation_failed', 'Generation failed');
    }
    return { text, engine: ctx.textGenerator.info.engine, uses_ai: ctx.textGenerator.info.usesAi };
  });
}
