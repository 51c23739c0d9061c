import { z } from 'zod';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/responses.js';
import { SELECTABLE_DOCUMENTS } from '../consultation_types/catalogue.js';
import { saveGuide } from './service.js';

/**
 * Spec §7 POST /v1/selectable_documents/{id}/user_guides: the clinician's standing guidance for a document kind,
 * given to the engine with every generation of it (as the clinician's preference, never above the facts rule).
 */
export function selectableDocumentsRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/selectable_documents/:id/user_guides',
    {
      onRequest: requireUser(ctx),
      schema: {
        params: z.object({ id: z.string().min(1).max(100) }),
        body: z.object({ content: z.string().trim().max(5_000) }).strict(),
        response: { 200: z.object({ user_guide: z.object({ document_id: z.string(), content: z.string() }) }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      if (!Object.hasOwn(SELECTABLE_DOCUMENTS, request.params.id)) throw notFound('Unknown document');
      const content = await saveGuide(ctx.db, currentUser(request).id, request.params.id, request.body.content);
      return { user_guide: { document_id: request.params.id, content: content ?? '' } };
    },
  );
}
