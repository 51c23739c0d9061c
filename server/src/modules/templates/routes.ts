import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { consultationSessions, generatedDocuments } from '../../db/schema.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { errorResponses } from '../../http/responses.js';
import { findOwnTemplate } from '../processor_inputs/service.js';

const reportsSchema = z.object({
  template: z.object({ id: z.uuid(), name: z.string(), processor_input_id: z.string() }),
  reports: z.array(
    z.object({
      session_id: z.uuid(),
      consultation_type_id: z.string(),
      document_key: z.string(),
      version: z.number().int(),
      created_at: z.iso.datetime(),
      excerpt: z.string(),
    }),
  ),
});

const EXCERPT_CHARS = 280;

/**
 * Spec §7 GET /template/{id}/reports: what one of the clinician's templates has produced: the documents written
 * with it that are still kept (the retention job removes them with their consultation), newest first.
 */
export function templatesRoutes(app: App, ctx: AppContext) {
  app.get(
    '/template/:id/reports',
    {
      onRequest: requireUser(ctx),
      schema: { params: z.object({ id: z.uuid({ error: 'invalid_id' }) }), response: { 200: reportsSchema, ...errorResponses(400, 401, 404) } },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const template = await findOwnTemplate(ctx.db, userId, request.params.id);
      const rows = await ctx.db
        .select({ doc: generatedDocuments, typeId: consultationSessions.consultationTypeId })
        .from(generatedDocuments)
        .innerJoin(consultationSessions, eq(consultationSessions.id, generatedDocuments.sessionId))
        .where(and(eq(generatedDocuments.templateId, template.id), eq(consultationSessions.userId, userId), inArray(generatedDocuments.status, ['done'])))
        .orderBy(desc(generatedDocuments.createdAt))
        .limit(100);
      return {
        template: { id: template.id, name: template.name, processor_input_id: template.processorInputId },
        reports: rows.map(({ doc, typeId }) => ({
          session_id: doc.sessionId,
          consultation_type_id: typeId,
          document_key: doc.documentKey,
          version: doc.version,
          created_at: doc.createdAt.toISOString(),
          excerpt: doc.text.slice(0, EXCERPT_CHARS),
        })),
      };
    },
  );
}
