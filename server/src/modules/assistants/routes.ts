import { z } from 'zod';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { requestLanguage } from '../../http/language.js';
import { ASSISTANTS } from './catalogue.js';
import { ask, runState } from './service.js';

const key = z.string().min(1).max(100);

/** Spec §7: the assistant chat. A question starts a run; the client polls the run until it is completed or failed. */
export function assistantsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);

  app.get('/assistants', { onRequest: preHandler }, async (request) => {
    const lang = requestLanguage(request);
    return { assistants: ASSISTANTS.map((a) => ({ key: a.key, name: a.name[lang], description: a.description[lang] })), available: Boolean(ctx.textGenerator.converse) };
  });

  app.post(
    '/assistant',
    { onRequest: preHandler, schema: { body: z.object({ message: z.string().trim().min(1).max(20_000), assistant_key: key, thread_key: key.optional() }) }, config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => reply.status(202).send(await ask(ctx, currentUser(request), request.body)),
  );

  app.get(
    '/assistant/run',
    { onRequest: preHandler, schema: { querystring: z.object({ assistant_key: key, thread_key: key, run_key: z.uuid({ error: 'invalid_id' }) }) } },
    async (request) => runState(ctx, currentUser(request).id, request.query),
  );
}
