import { z } from 'zod';
import type { Language } from '../../../../contract/constants.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { errorResponses } from '../../http/responses.js';
import { NOTES_FIELDS, type NotesData } from '../../ai/text-generator.js';
import { SELECTABLE_DOCUMENTS } from '../consultation_types/catalogue.js';
import { debitGeneration, refundGeneration } from '../credits/service.js';
import { describeErrorSafely } from '../../http/safe-errors.js';
import { cutOffCode, TextCutOff } from '../../ai/text-cut-off.js';

const body = z
  .object({
    data: z.union([z.string().max(100_000), z.record(z.string(), z.union([z.string().max(50_000), z.number(), z.boolean()]))]),
    template: z.string().min(1).max(50_000).optional(),
    /** A selectable document to write on its own (outside a consultation); the template, if any, is its layout. */
    document: z.string().min(1).max(100).optional(),
    model: z.string().max(100).optional(),
    temperature: z.number().min(0).max(2).optional(),
  })
  .refine((b) => b.template !== undefined || b.document !== undefined, { message: 'template or document is required', path: ['template'] });

/**
 * Spec §7 POST /generate: fills a template with data. An AI engine writes it from the template; the offline
 * composer fills `{{name}}` placeholders and marks what is missing.
 */
export function generateRoutes(app: App, ctx: AppContext) {
  app.post(
    '/generate',
    {
      onRequest: requireUser(ctx),
      schema: {
        body,
        response: {
          200: z.object({ text: z.string(), engine: z.string(), uses_ai: z.boolean().describe('Whether an AI engine wrote it (credits were debited)') }),
          ...errorResponses(400, 401, 402, 404, 429, 502),
        },
      },
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    },
    async (request) => {
      const user = currentUser(request);
      const { data, template, document, model, temperature } = request.body;
      if (document !== undefined && !Object.hasOwn(SELECTABLE_DOCUMENTS, document)) throw new DomainError(404, 'not_found', 'Unknown document');
      const values = typeof data === 'string' ? { text: data } : Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
      // For a document kind, the spec's notes fields are its data and `transcript` (or `text`) what was said.
      const notes = Object.fromEntries(Object.entries(values).filter(([k]) => (NOTES_FIELDS as readonly string[]).includes(k))) as NotesData;
      const extraData = document ? {} : values;
      const charged = ctx.textGenerator.info.usesAi ? await debitGeneration(ctx.db, user) : undefined;
      let text = '';
      try {
        for await (const delta of ctx.textGenerator.write({
          documentKind: document ?? 'custom',
          language: user.language as Language,
          transcript: document ? (values.transcript ?? values.text ?? '') : '',
          data: document ? notes : {},
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
        request.log.warn({ err: describeErrorSafely(err) }, 'generation failed');
        // A text the engine did not finish is never answered, not even in part: a caller would take it as whole.
        throw new DomainError(502, cutOffCode(err), err instanceof TextCutOff ? `${err.message} Nothing was charged.` : 'Generation failed');
      }
      return { text, engine: ctx.textGenerator.info.engine, uses_ai: ctx.textGenerator.info.usesAi };
    },
  );
}
