import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { consultationFeedbackSchema, EDITING_TIMES } from '../../../../contract/consultations.js';
import { consultationFeedback } from '../../db/schema.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App } from '../../http/context.js';
import type { AppContext } from '../../app-context.js';
import { notFound } from '../../errors/domain-error.js';
import { errorResponses } from '../../http/responses.js';
import { requireOwnedSession } from './service.js';

const params = z.object({ id: z.uuid({ error: 'invalid_id' }) });
const feedbackEnvelope = z.object({
  feedback: z.object({
    doctor_satisfaction: z.number().int(),
    patient_satisfaction: z.number().int().nullable(),
    notes_quality: z.number().int().nullable(),
    editing_time: z.enum(EDITING_TIMES).nullable(),
    comment: z.string().nullable(),
    share_anonymously: z.boolean(),
    created_at: z.iso.datetime(),
  }),
});

function view(row: typeof consultationFeedback.$inferSelect): z.infer<typeof feedbackEnvelope>['feedback'] {
  return {
    doctor_satisfaction: row.doctorSatisfaction,
    patient_satisfaction: row.patientSatisfaction,
    notes_quality: row.notesQuality,
    editing_time: row.editingTime as (typeof EDITING_TIMES)[number] | null,
    comment: row.comment,
    share_anonymously: row.shareAnonymously,
    created_at: row.createdAt.toISOString(),
  };
}

/** Spec §7 POST …/feedback: the clinician's rating of a consultation; sending again replaces it. */
export function consultationFeedbackRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const url = '/v1/consultation_sessions/:id/feedback';

  app.post(
    url,
    {
      onRequest: preHandler,
      schema: {
        params,
        body: z.object({ feedback: consultationFeedbackSchema }).strict(),
        response: { 201: feedbackEnvelope, ...errorResponses(400, 401, 404, 409, 410) },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const session = await requireOwnedSession(ctx, userId, request.params.id);
      const f = request.body.feedback;
      const values = {
        doctorSatisfaction: f.doctor_satisfaction,
        patientSatisfaction: f.patient_satisfaction ?? null,
        notesQuality: f.notes_quality ?? null,
        editingTime: f.editing_time ?? null,
        comment: f.comment || null,
        shareAnonymously: f.share_anonymously,
      };
      const [row] = await ctx.db
        .insert(consultationFeedback)
        .values({ sessionId: session.id, userId, ...values })
        .onConflictDoUpdate({ target: [consultationFeedback.sessionId, consultationFeedback.userId], set: { ...values, createdAt: new Date() } })
        .returning();
      return reply.status(201).send({ feedback: view(row!) });
    },
  );

  app.get(url, { onRequest: preHandler, schema: { params, response: { 200: feedbackEnvelope, ...errorResponses(400, 401, 404, 410) } } }, async (request) => {
    const userId = currentUser(request).id;
    const session = await requireOwnedSession(ctx, userId, request.params.id, 'read');
    const [row] = await ctx.db
      .select()
      .from(consultationFeedback)
      .where(and(eq(consultationFeedback.sessionId, session.id), eq(consultationFeedback.userId, userId)));
    if (!row) throw notFound('No feedback sent for this consultation');
    return { feedback: view(row) };
  });
}
