import { z } from 'zod';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { requestLanguage } from '../../http/language.js';
import { errorResponses, noContent } from '../../http/responses.js';
import { PROCESSOR_INPUTS } from '../consultation_types/catalogue.js';
import { createTemplate, deleteTemplate, listTemplates, templateView, updateTemplate } from './service.js';

/** Spec §3 "Template: name and text". A bare string is accepted as the text of an unnamed template. */
const templateBody = z.object({
  template: z.union([
    z.object({ name: z.string().trim().min(1).max(120), template: z.string().trim().min(1).max(20_000) }).strict(),
    z.string().trim().min(1).max(20_000),
  ]),
});
const templateSchema = z.object({
  id: z.uuid(),
  processor_input_id: z.string(),
  name: z.string(),
  template: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
const templateEnvelope = z.object({ template: templateSchema });
const inputParams = z.object({ id: z.string().min(1).max(100) });
const templateParams = inputParams.extend({ templateId: z.uuid({ error: 'invalid_id' }) });

function toInput(body: z.infer<typeof templateBody>) {
  return typeof body.template === 'string' ? { text: body.template } : { name: body.template.name, text: body.template.template };
}

/** Spec §7 "Templates and guides": the processor inputs and the clinician's personal templates for each. */
export function processorInputsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);

  app.get(
    '/v1/processor_inputs',
    {
      onRequest: preHandler,
      schema: {
        response: {
          200: z.object({
            processor_inputs: z.array(z.object({ id: z.string(), name: z.string(), document_id: z.string(), templates: z.array(templateSchema) })),
          }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const lang = requestLanguage(request);
      const templates = await listTemplates(ctx.db, currentUser(request).id);
      return {
        processor_inputs: PROCESSOR_INPUTS.map((p) => ({
          id: p.id,
          name: p.name[lang],
          document_id: p.documentId,
          templates: templates.filter((t) => t.processorInputId === p.id).map(templateView),
        })),
      };
    },
  );

  app.post(
    '/v1/processor_inputs/:id/templates',
    { onRequest: preHandler, schema: { params: inputParams, body: templateBody, response: { 201: templateEnvelope, ...errorResponses(400, 401, 404, 409) } } },
    async (request, reply) => {
      const row = await createTemplate(ctx.db, currentUser(request).id, request.params.id, toInput(request.body));
      return reply.status(201).send({ template: templateView(row) });
    },
  );

  app.put(
    '/v1/processor_inputs/:id/templates/:templateId',
    {
      onRequest: preHandler,
      schema: { params: templateParams, body: templateBody, response: { 200: templateEnvelope, ...errorResponses(400, 401, 404, 409) } },
    },
    async (request) => {
      const row = await updateTemplate(ctx.db, currentUser(request).id, request.params.id, request.params.templateId, toInput(request.body));
      return { template: templateView(row) };
    },
  );

  app.delete(
    '/v1/processor_inputs/:id/templates/:templateId',
    { onRequest: preHandler, schema: { params: templateParams, response: { 204: noContent('Deleted'), ...errorResponses(400, 401, 404) } } },
    async (request, reply) => {
      await deleteTemplate(ctx.db, currentUser(request).id, request.params.id, request.params.templateId);
      return reply.status(204).send(null);
    },
  );
}
