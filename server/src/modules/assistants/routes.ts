import { z } from 'zod';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { requestLanguage } from '../../http/language.js';
import { errorResponses } from '../../http/responses.js';
import { ASSISTANTS } from './catalogue.js';
import { ask, runState } from './service.js';

const key = z.string().min(1).max(100);
const runStatus = z.enum(['queued', 'in_progress', 'completed', 'failed']);

/** Spec §7: the assistant chat. A question starts a run; the client polls the run until it is completed or failed. */
export function assistantsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);

  app.get(
    '/assistants',
    {
      onRequest: preHandler,
      schema: {
        response: {
          200: z.object({ assistants: z.array(z.object({ key: z.string(), name: z.string(), description: z.string() })), available: z.boolean() }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const lang = requestLanguage(request);
      return {
        assistants: ASSISTANTS.map((a) => ({ key: a.key, name: a.name[lang], description: a.description[lang] })),
        available: Boolean(ctx.textGenerator.converse),
      };
    },
  );

  app.post(
    '/assistant',
    {
      onRequest: preHandler,
      schema: {
        body: z.object({ message: z.string().trim().min(1).max(20_000), assistant_key: key, thread_key: key.optional() }),
        response: {
          202: z
            .object({ assistant_key: z.string(), thread_key: z.string(), run_key: z.uuid(), status: z.literal('queued') })
            .describe('The run is queued: poll GET /assistant/run'),
          ...errorResponses(400, 401, 402, 404, 409, 429),
        },
      },
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    },
    async (request, reply) => reply.status(202).send(await ask(ctx, currentUser(request), request.body)),
  );

  app.get(
    '/assistant/run',
    {
      onRequest: preHandler,
      schema: {
        querystring: z.object({ assistant_key: key, thread_key: key, run_key: z.uuid({ error: 'invalid_id' }) }),
        response: {
          200: z.object({
            run_key: z.uuid(),
            status: runStatus,
            error: z.string().nullable(),
            error_code: z
              .string()
              .nullable()
              .describe(
                'Why a failed run has no reply when its engine stopped before finishing it (engine_length_limit, engine_timed_out…): the part it wrote is not kept',
              ),
            messages: z.array(z.object({ role: z.string(), content: z.string(), created_at: z.iso.datetime() })),
          }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => runState(ctx, currentUser(request).id, request.query),
  );
}
