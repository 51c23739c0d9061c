import { z } from 'zod';
import type { Language } from '../../../../contract/constants.js';
import { consultationTypeSchema } from '../../../../contract/consultations.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/language.js';
import { errorResponses } from '../../http/responses.js';
import { findGuide } from '../selectable_documents/service.js';
import { CONSULTATION_TYPES, findConsultationType, SELECTABLE_DOCUMENTS, type ConsultationType } from './catalogue.js';

const documentView = (id: string, lang: Language) => {
  const d = SELECTABLE_DOCUMENTS[id]!;
  return { id: d.id, name: d.name[lang], description: d.description[lang] };
};

export function typeView(t: ConsultationType, lang: Language) {
  return {
    id: t.id,
    kind: t.kind,
    show_transcription: t.showTranscription,
    name: t.name[lang],
    description: t.description[lang],
    processor_inputs: t.processorInputs.map((p) => ({ id: p.id, name: p.name[lang] })),
    main_document: documentView(t.documents[0]!, lang),
    selectable_documents: t.documents.slice(1).map((d) => documentView(d, lang)),
    catalogue: t.catalogue,
    section: t.section,
  };
}

export function consultationTypesRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  app.get(
    '/v1/consultation_types',
    { onRequest: preHandler, schema: { response: { 200: z.object({ consultation_types: z.array(consultationTypeSchema) }), ...errorResponses(401) } } },
    async (request) => ({
      consultation_types: CONSULTATION_TYPES.map((t) => typeView(t, requestLanguage(request))),
    }),
  );

  app.get(
    '/v1/consultation_types/:id',
    {
      onRequest: preHandler,
      schema: {
        params: z.object({ id: z.string().max(100) }),
        response: { 200: z.object({ consultation_type: consultationTypeSchema }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const type = findConsultationType(request.params.id);
      if (!type) throw notFound('Unknown consultation type');
      return { consultation_type: typeView(type, requestLanguage(request)) };
    },
  );

  app.get(
    '/v1/consultation_types/:id/selectable_documents/:docId',
    {
      onRequest: preHandler,
      schema: {
        params: z.object({ id: z.string().max(100), docId: z.string().max(100) }),
        response: {
          200: z.object({ selectable_document: consultationTypeSchema.shape.main_document.extend({ user_guide: z.string() }) }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const type = findConsultationType(request.params.id);
      if (!type?.documents.includes(request.params.docId)) throw notFound('Unknown document for this consultation type');
      const guide = await findGuide(ctx.db, currentUser(request).id, request.params.docId);
      return { selectable_document: { ...documentView(request.params.docId, requestLanguage(request)), user_guide: guide ?? '' } };
    },
  );
}
