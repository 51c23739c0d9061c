import { CHANNEL_LAYOUTS, isChannelLayout } from '../../../../contract/speakers.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { suggestedInputs } from '../../ai/offline-composer.js';
import { LANGUAGES, type Language } from '../../../../contract/constants.js';
import {
  activeSessionEnvelope,
  activeStatusSchema,
  audioEnvelope,
  audiosEnvelope,
  recorderCountSchema,
  recorderHeartbeatSchema,
  finishBodySchema,
  progressEnvelope,
  progressQuery,
  sessionEnvelope,
  sessionsEnvelope,
  sessionSummarySchema,
  transcriptionStatus,
  transcriptionEnvelope,
  PATIENT_LABEL_MAX,
  consentBody,
} from '../../../../contract/consultations.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { currentUser, currentUserId, requireUser, requireUserId } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { readMultipart } from '../../http/multipart.js';
import { binary, errorResponses, fileResponse } from '../../http/responses.js';
import { storeChunk } from './audio.js';
import { consultationBundle } from './fhir.js';
import { pushToRecord } from './fhir-push.js';
import {
  acquireRecording,
  noteRecordingDevice,
  recorderHeartbeat,
  recorderView,
  recordingDevice,
  releaseRecording,
  requestDeviceId,
  requireDeviceId,
} from './recording-lease.js';
import { historyItemSchema, listHistory } from './history.js';
import { pageCursor, pageQuery } from './paging.js';
import { streamRecording } from './recording-file.js';
import { findActiveSession, findChunks, findSessionById, findUserOrganization, listChunks, listRecentFinished, listVisibleSessions } from './repository.js';
import {
  ActiveSessionExistsError,
  createSession,
  findOwnedSessionById,
  finishSession,
  recordConsent,
  requireOwnedSession,
  setRecordingState,
  updateSession,
} from './service.js';
import { chunkView, sessionDetail, sessionProgress, sessionSummary } from './view.js';
import { mainDocumentExcerpts } from './excerpt.js';
import { isPastRetention } from './retention-state.js';
import { latestVersion, resolveDocumentKey, startGeneration } from '../generated_documents/service.js';
import { recordAsOwner } from '../../audit/audit-hook.js';
import { requeueSpeakable } from '../../jobs/transcription-worker.js';

const idParams = z.object({ id: z.uuid({ error: 'invalid_id' }) });
const userInput = z.object({
  processor_input_id: z.string().min(1).max(100),
  secondary_processor_input_id: z.string().max(100).optional(),
  value: z.string().max(50_000),
});
const AUDIO_URL_TTL_SECONDS = 300;

/**
 * A start refused because another consultation is under way: the error and that consultation, to go back to it
 * (active_session_exists); any other conflict (session_id_taken) is the plain error. The fuller form comes first:
 * the serializer keeps the first that fits, and the plain one would drop the consultation.
 */
const activeSessionExists = z
  .union([z.object({ error: apiErrorSchema.shape.error, consultation_session: sessionSummarySchema.describe('The consultation under way') }), apiErrorSchema])
  .describe('Another consultation is under way (active_session_exists, with it), or the id sent is taken (session_id_taken)');

/** A FHIR resource as the record system reads it (sent as text, as written: only its outline is described). */
const fhirBundle = z.looseObject({ resourceType: z.literal('Bundle'), type: z.literal('document') });

/** What "Send to record" did (fhir-push.ts PushResult). */
const pushResultSchema = z.object({
  status: z.enum(['sent', 'partial']),
  base_url: z.string(),
  resources: z.array(
    z.object({
      resource_type: z.string(),
      status: z.number().int().describe("The record system's HTTP status for it; 0 when it gave no answer"),
      location: z.string().nullable(),
      error: z.string().optional(),
    }),
  ),
  error: z.string().optional(),
});

export function consultationSessionsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/consultation_sessions';
  /** Also the answer after a change, so it reads (a change has already been refused if not allowed). */
  const detail = async (id: string, userId: string, deviceId?: string) => {
    const session = await requireOwnedSession(ctx, userId, id, 'read');
    return { consultation_session: sessionDetail(session, await listChunks(ctx.db, session.id), ctx.config.partWaitMs, recorderView(session, deviceId)) };
  };

  app.post(
    base,
    {
      onRequest: preHandler,
      schema: {
        body: z.object({
          consultation_type_id: z.string().min(1).max(100),
          mobile: z.boolean().optional(),
          force: z.boolean().optional(),
          // Chosen by a device that started the consultation with no network; sending it again is harmless.
          id: z.uuid({ error: 'invalid_id' }).optional(),
          // The language spoken; the clinician's own when not given.
          language: z.enum(LANGUAGES, { error: 'unsupported_language' }).optional(),
        }),
        response: {
          200: sessionEnvelope.describe('The consultation this id already names: a start sent again'),
          201: sessionEnvelope,
          ...errorResponses(400, 401),
          409: activeSessionExists,
        },
      },
    },
    async (request, reply) => {
      try {
        const userId = currentUser(request).id;
        if (request.body.id) {
          const replay = await findOwnedSessionById(ctx, userId, request.body.id);
          if (replay)
            return reply.status(200).send({ consultation_session: sessionDetail(replay, await listChunks(ctx.db, replay.id), ctx.config.partWaitMs) });
        }
        const session = await createSession(ctx, userId, request.body);
        return reply.status(201).send({ consultation_session: sessionDetail(session, [], ctx.config.partWaitMs) });
      } catch (err) {
        if (err instanceof ActiveSessionExistsError) {
          return reply.status(409).send({
            error: { code: err.code, message: err.message },
            consultation_session: sessionSummary(err.session),
          });
        }
        throw err;
      }
    },
  );

  const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 410: apiErrorSchema };
  const withSession = { response: { 200: sessionEnvelope, 202: sessionEnvelope, ...errors } };
  const withTranscription = { response: { 200: transcriptionEnvelope, ...errors } };

  // A page at a time (PAGE_SIZE, newest first); the next with ?before= the last one's created_at and &before_id= its id.
  app.get(base, { onRequest: preHandler, schema: { querystring: pageQuery, response: { 200: sessionsEnvelope, 400: apiErrorSchema } } }, async (request) => ({
    consultation_sessions: (await listVisibleSessions(ctx.db, currentUser(request).id, pageCursor(request.query))).map(sessionSummary),
  }));

  app.get(`${base}/recent`, { onRequest: preHandler, schema: { response: { 200: sessionsEnvelope, ...errorResponses(401) } } }, async (request) => {
    const sessions = await listRecentFinished(ctx.db, currentUser(request).id);
    const excerpts = await mainDocumentExcerpts(ctx.db, sessions);
    return { consultation_sessions: sessions.map((s) => ({ ...sessionSummary(s), excerpt: excerpts.get(s.id) ?? null })) };
  });

  app.get(
    `${base}/history`,
    {
      onRequest: preHandler,
      schema: { querystring: pageQuery, response: { 200: z.object({ consultation_sessions: z.array(historyItemSchema) }), ...errorResponses(400, 401) } },
    },
    async (request) => ({
      consultation_sessions: await listHistory(ctx.db, currentUser(request).id, { withContent: true, cursor: pageCursor(request.query) }),
    }),
  );

  app.get(`${base}/active`, { onRequest: preHandler, schema: { response: { 200: activeSessionEnvelope, ...errorResponses(401) } } }, async (request) => {
    const active = await findActiveSession(ctx.db, currentUser(request).id);
    return { consultation_session: active ? sessionSummary(active) : null };
  });

  // The hot polls are not logged per request (two lines for each of thousands of phones every 5 s); a refused one
  // still is, once, at warn: a flood of stolen or revoked tokens must leave a trace (they are not audited).
  const logRefused = async (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode >= 400) request.log.warn({ req: request, statusCode: reply.statusCode }, 'poll refused');
  };

  // Polled every 5 s by every phone-mode user: the token and the answer come from in-memory caches that changes drop.
  app.get(
    `${base}/active/status`,
    { onRequest: requireUserId(ctx), onResponse: logRefused, logLevel: 'warn', schema: { response: { 200: activeStatusSchema, ...errorResponses(401) } } },
    async (request) => {
      const userId = currentUserId(request);
      return ctx.activeStatus.get(userId, async () => {
        const active = await findActiveSession(ctx.db, userId);
        return active
          ? { active: true, id: active.id, show_transcription: active.showTranscription, recording_state: active.recordingState }
          : { active: false };
      });
    },
  );

  app.get(`${base}/:id`, { onRequest: preHandler, schema: { params: idParams, ...withSession } }, async (request) =>
    detail(request.params.id, currentUser(request).id, requestDeviceId(request)),
  );

  // The consultation screen's poll: a few hundred bytes while nothing changes, the new words when some arrive.
  app.get(
    `${base}/:id/progress`,
    { onRequest: preHandler, schema: { params: idParams, querystring: progressQuery, response: { 200: progressEnvelope, ...errors } } },
    async (request) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'read');
      const parts = await ctx.partsCache.parts(ctx.db, session.id);
      const { transcription_from: from, transcription_prefix: prefix } = request.query;
      const work = ctx.partsCache.work(session.id, parts);
      return {
        consultation_progress: sessionProgress(session, parts, ctx.config.partWaitMs, recorderView(session, requestDeviceId(request)), { from, prefix }, work),
      };
    },
  );

  app.put(
    `${base}/:id`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        body: z
          .object({
            user_inputs: z.array(userInput).max(100).optional(),
            // Blank clears it; control, line-separator and direction-changing characters and broken UTF-16 are
            // refused, not stored (joiners, which some scripts' names need, are kept).
            patient_label: z
              .string()
              .trim()
              .max(PATIENT_LABEL_MAX, { error: 'too_long' })
              .refine((v) => !/[\p{Cc}\p{Cs}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(v), { error: 'invalid_characters' })
              .nullable()
              .optional(),
            language: z.enum(LANGUAGES, { error: 'unsupported_language' }).optional(),
          })
          .strict()
          .refine((b) => b.user_inputs !== undefined || b.patient_label !== undefined || b.language !== undefined, { error: 'required' }),
        ...withSession,
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const { user_inputs, patient_label, language } = request.body;
      if (patient_label !== undefined || language !== undefined) {
        const session = await requireOwnedSession(ctx, userId, request.params.id);
        if (isPastRetention(session))
          throw new DomainError(409, 'consultation_archived', 'This consultation is past its retention window and can no longer be changed');
      }
      await updateSession(ctx, userId, request.params.id, {
        ...(user_inputs !== undefined ? { userInputs: user_inputs } : {}),
        ...(patient_label !== undefined ? { patientLabel: patient_label || null } : {}),
        ...(language !== undefined ? { language } : {}),
      });
      // Parts kept for want of an engine that speaks the old language are transcribed in the new one, if it can:
      // queued now, so that the answer already says they are on their way.
      if (language !== undefined && (await requeueSpeakable(ctx.db, ctx.transcriber.info.languages, request.params.id)) > 0) ctx.transcriptionQueue.wake();
      return detail(request.params.id, userId);
    },
  );

  /**
   * The patient's consent to recording, as the organization asks for it: the clinician confirms the patient's word,
   * or the patient confirms on the screen. Given once; a second call changes nothing. `given_at` is when it was given
   * on a device that was offline then (never in the future, never before the consultation began).
   */
  app.put(
    `${base}/:id/consent`,
    { onRequest: preHandler, schema: { params: idParams, body: consentBody, response: { 200: sessionEnvelope, ...errorResponses(400, 401, 404, 409, 410) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const session = await requireOwnedSession(ctx, userId, request.params.id);
      await recordConsent(ctx, session, userId, request.body.method, request.body.given_at);
      return detail(session.id, userId);
    },
  );

  app.put(
    `${base}/:id/recording`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        ...withSession,
        body: z
          .object({ platform: z.string().max(200), mics_info: z.unknown().optional(), take_over: z.boolean().optional(), mobile: z.boolean().optional() })
          .refine((b) => JSON.stringify(b.mics_info ?? null).length < 20_000, {
            message: 'too_large',
            path: ['mics_info'],
          }),
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const session = await requireOwnedSession(ctx, userId, request.params.id);
      if (session.status !== 'active') throw new DomainError(409, 'session_finished', 'This consultation has already ended');
      // Recording starts only once the patient's consent, when the organization asks for it, is on record. Parts a
      // device recorded offline are never refused for it (no recorded audio is lost); the app asks before it records.
      if (session.consentRequired !== 'off' && !session.consentAt) {
        throw new DomainError(409, 'consent_required', "Record the patient's consent before recording");
      }
      const deviceId = requestDeviceId(request);
      if (deviceId) {
        const outcome = await acquireRecording(ctx, session.id, { id: deviceId, mobile: request.body.mobile ?? false }, request.body.take_over ?? false);
        // Asked to hand over: the recorder stops at its next heartbeat; the caller asks again until it is granted.
        if (outcome === 'waiting') return reply.status(202).send(await detail(session.id, userId, deviceId));
      }
      await noteRecordingDevice(ctx, session.id, recordingDevice(request.body.platform, request.body.mobile ?? false));
      await setRecordingState(ctx, userId, session.id, 'recording', { platform: request.body.platform, micsInfo: request.body.mics_info ?? null });
      return detail(session.id, userId, deviceId);
    },
  );

  app.put(
    `${base}/:id/recording/heartbeat`,
    // Every 5 s from every recorder: like the status poll, logged only when it fails.
    {
      onRequest: preHandler,
      onResponse: logRefused,
      logLevel: 'warn',
      schema: { params: idParams, body: recorderCountSchema, response: { 200: recorderHeartbeatSchema, ...errors } },
    },
    async (request) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id);
      return recorderHeartbeat(ctx, session.id, requireDeviceId(request), request.body.next_order);
    },
  );

  app.put(
    `${base}/:id/recording/release`,
    { onRequest: preHandler, schema: { params: idParams, body: recorderCountSchema, ...withSession } },
    async (request) => {
      const userId = currentUser(request).id;
      const session = await requireOwnedSession(ctx, userId, request.params.id);
      const deviceId = requireDeviceId(request);
      await releaseRecording(ctx, session.id, deviceId, request.body.next_order);
      return detail(session.id, userId, deviceId);
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.put(`${base}/:id/${action}`, { onRequest: preHandler, schema: { params: idParams, ...withSession } }, async (request) => {
      const userId = currentUser(request).id;
      await setRecordingState(ctx, userId, request.params.id, action === 'pause' ? 'paused' : 'recording');
      return detail(request.params.id, userId);
    });
  }

  // The body is optional (Fastify reads a missing one as null): older clients and other screens send none.
  app.put(`${base}/:id/finish`, { onRequest: preHandler, schema: { params: idParams, body: finishBodySchema.nullish(), ...withSession } }, async (request) => {
    const userId = currentUser(request).id;
    const { session, finishedNow } = await finishSession(ctx, userId, request.params.id, request.body?.parts);
    // The main document is written as soon as the consultation ends (after the parts and transcript have caught
    // up), by the one request that finished it; a repeated finish starts it when nothing did (the consultation was
    // ended another way, e.g. by a newer one's forced start, or the first finish failed after it was saved). The
    // finish-triggered version is unique, so racing finishes still write and debit it once.
    if (finishedNow || (session.status === 'finished' && !(await latestVersion(ctx, session.id, resolveDocumentKey(session, 'main'))))) {
      // Ending a consultation never fails for want of credits: the document can be generated later.
      await startGeneration(ctx, session, 'main', { finishTriggered: true }).catch((err: unknown) => {
        if (!(err instanceof DomainError && err.status === 402)) throw err;
      });
    }
    return detail(request.params.id, userId);
  });

  app.get(`${base}/:id/transcription`, { onRequest: preHandler, schema: { params: idParams, ...withTranscription } }, async (request) => {
    const { consultation_session: s } = await detail(request.params.id, currentUser(request).id);
    return { transcription: s.transcription, transcription_status: s.transcription_status, transcription_edited: s.transcription_edited };
  });

  /** The notes data the transcript already says (measurements, medicines), for the clinician to take into the form. */
  app.get(
    `${base}/:id/suggested_inputs`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        response: {
          200: z.object({
            suggested_inputs: z.array(
              z.object({ processor_input_id: z.string(), value: z.string(), source: z.string().describe('The sentence of the transcript it was heard in') }),
            ),
            transcription_status: transcriptionStatus,
          }),
          ...errorResponses(400, 401, 404, 410),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { consultation_session: s } = await detail(request.params.id, user.id);
      return { suggested_inputs: suggestedInputs(s.transcription ?? '', user.language as Language), transcription_status: s.transcription_status };
    },
  );

  app.put(
    `${base}/:id/transcription`,
    { onRequest: preHandler, schema: { params: idParams, body: z.object({ transcription: z.string().max(500_000) }), ...withTranscription } },
    async (request) => {
      const userId = currentUser(request).id;
      await updateSession(ctx, userId, request.params.id, { transcriptionOverride: request.body.transcription });
      const { consultation_session: s } = await detail(request.params.id, userId);
      return { transcription: s.transcription, transcription_status: s.transcription_status, transcription_edited: s.transcription_edited };
    },
  );

  app.post(
    `${base}/:id/audios`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        response: { 200: audioEnvelope.describe('This part was already stored (same order)'), 201: audioEnvelope, ...errors, ...errorResponses(413, 415) },
      },
    },
    async (request, reply) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id);
      const form = await readMultipart(request, { maxFileBytes: ctx.config.maxAudioChunkBytes, fileFields: ['audio_file'], maxFields: 5 });
      // Only plain decimal digits: Number() would also read '', ' 7', '1e3' and '0x10' as orders.
      const order = /^\d{1,6}$/.test(form.fields.order ?? '') ? Number(form.fields.order) : undefined;
      const file = form.file;
      if (order === undefined || order > 100_000) {
        throw new DomainError(400, 'invalid_request', 'order must be a whole number from 0', { order: 'invalid_order' });
      }
      if (!file || file.data.length === 0) throw new DomainError(400, 'audio_missing', 'No audio received', { audio_file: 'required' });
      // Optional: the recorder's measure of the part, shown until the server has measured it (at most an hour).
      const reported = form.fields.duration_ms;
      if (reported !== undefined && !(/^\d{1,7}$/.test(reported) && Number(reported) <= 3_600_000)) {
        throw new DomainError(400, 'invalid_request', 'duration_ms must be a whole number of milliseconds', { duration_ms: 'invalid_duration' });
      }
      // Optional: `clinician_patient` for a teleconsultation's two channels, transcribed apart to tell who spoke.
      const layout = form.fields.channel_layout ?? 'mono';
      if (!isChannelLayout(layout)) {
        throw new DomainError(400, 'invalid_request', `channel_layout must be one of ${CHANNEL_LAYOUTS.join(', ')}`, {
          channel_layout: 'invalid_channel_layout',
        });
      }
      const { chunk, created } = await storeChunk(ctx, session, {
        order,
        mimeType: file.mimeType,
        data: file.data,
        channelLayout: layout,
        durationMs: reported === undefined ? null : Number(reported),
        deviceId: requestDeviceId(request),
      });
      return reply.status(created ? 201 : 200).send({ audio: chunkView(chunk) });
    },
  );

  app.get(
    `${base}/:id/audios`,
    {
      onRequest: preHandler,
      schema: { params: idParams, querystring: z.object({ audios_ids: z.string().max(20_000).optional() }), response: { 200: audiosEnvelope, ...errors } },
    },
    async (request) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'audio');
      const ids = request.query.audios_ids
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (ids?.some((id) => !z.uuid().safeParse(id).success)) {
        throw new DomainError(400, 'invalid_request', 'audios_ids must be a comma-separated list of ids', { audios_ids: 'invalid_id' });
      }
      const chunks = ids ? await findChunks(ctx.db, session.id, ids) : await listChunks(ctx.db, session.id);
      return { audios: chunks.map(chunkView) };
    },
  );

  app.get(
    `${base}/:id/audios/:audioId`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams.extend({ audioId: z.uuid({ error: 'invalid_id' }) }),
        response: {
          200: {
            description: "The part's audio (in the type it was recorded in), or with Accept: application/json its description",
            content: { 'audio/*': { schema: binary }, 'application/json': { schema: audioEnvelope } },
          },
          ...errorResponses(400, 401, 404, 410),
        },
      },
    },
    async (request, reply) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'audio');
      const [chunk] = await findChunks(ctx.db, session.id, [request.params.audioId]);
      if (!chunk) throw notFound('Audio not found');
      const accept = request.headers.accept ?? '';
      if (accept.includes('application/json')) return { audio: chunkView(chunk) };
      if (chunk.audioDeletedAt)
        throw new DomainError(410, 'audio_not_kept', 'This audio is not kept: your consultation data storage settings remove it once transcribed');
      return reply.type(chunk.mimeType).header('cache-control', 'private, no-store').send(ctx.blobs.read(chunk.blobKey));
    },
  );

  /** The consultation's finished documents as a FHIR R4 document Bundle, to download or hand to a record system. */
  const fhirQuery = z.object({ document: z.string().max(100).optional() });
  app.get(
    `${base}/:id/fhir`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        querystring: fhirQuery,
        response: {
          200: fileResponse('A FHIR R4 document Bundle of the finished documents (one, with ?document=)', ['application/fhir+json'], fhirBundle),
          ...errorResponses(400, 401, 404, 409, 410),
        },
      },
    },
    async (request, reply) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'read');
      const document = request.query.document === undefined ? undefined : resolveDocumentKey(session, request.query.document);
      const { bundle } = await consultationBundle(ctx, session, document);
      return reply.type('application/fhir+json; charset=utf-8').send(JSON.stringify(bundle));
    },
  );

  /** "Send to record": the finished documents posted to the organization's record system; its answer comes back. */
  app.post(
    `${base}/:id/fhir_push`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        querystring: fhirQuery,
        response: {
          200: z.object({ fhir_push: pushResultSchema }),
          207: z.object({ fhir_push: pushResultSchema }).describe('Part of it filed, the rest refused (see resources and error)'),
          ...errorResponses(400, 401, 404, 409, 410, 502),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const session = await requireOwnedSession(ctx, user.id, request.params.id, 'read');
      const document = request.query.document === undefined ? undefined : resolveDocumentKey(session, request.query.document);
      const result = await pushToRecord(ctx, session, user, document);
      // 207: part of it filed; the audit log records the push as partial, not as done.
      return reply.status(result.status === 'partial' ? 207 : 200).send({ fhir_push: result });
    },
  );

  /** A short-lived signed address of the whole recording, playable by an <audio> element without a token. */
  app.get(
    `${base}/:id/audio_url`,
    {
      onRequest: preHandler,
      schema: {
        params: idParams,
        response: {
          200: z.object({
            audio_url: z.string().describe('GET /v1/consultation_sessions/{id}/recording, signed: no token needed'),
            expires_at: z.iso.datetime(),
          }),
          ...errorResponses(400, 401, 404, 410),
        },
      },
    },
    async (request) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'audio');
      const expires = Math.floor(Date.now() / 1000) + AUDIO_URL_TTL_SECONDS;
      const url = `${ctx.config.publicUrl}${base}/${session.id}/recording?expires=${expires}&signature=${signRecording(ctx, session.id, expires)}`;
      return { audio_url: url, expires_at: new Date(expires * 1000).toISOString() };
    },
  );

  app.get(
    `${base}/:id/recording`,
    {
      schema: {
        params: idParams,
        querystring: z.object({ expires: z.coerce.number().int(), signature: z.string().max(200) }),
        response: { 200: fileResponse('The whole recording, its parts one after another', ['audio/webm']), ...errorResponses(400, 404, 410) },
      },
    },
    async (request, reply) => {
      const { expires, signature } = request.query;
      const expected = Buffer.from(signRecording(ctx, request.params.id, expires));
      const given = Buffer.from(signature);
      if (expires < Date.now() / 1000 || expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound('Recording not found');
      // The signature proves the owner asked for this address; the session must still exist.
      const session = await findSessionById(ctx.db, request.params.id);
      if (!session) throw notFound('Recording not found');
      // In the owner's organization's audit log, as a playback through the owner's address.
      recordAsOwner(request, { userId: session.userId, organizationId: await findUserOrganization(ctx.db, session.userId) });
      // An address signed before the window ended plays nothing after it: the audio is deleted (or about to be).
      if (isPastRetention(session)) throw new DomainError(410, 'audio_deleted', 'The audio of this consultation was deleted after the retention period');
      const chunks = (await listChunks(ctx.db, session.id)).filter((c) => !c.audioDeletedAt);
      if (chunks.length === 0) throw notFound('No recorded audio is kept for this consultation');
      return streamRecording(ctx, reply, chunks);
    },
  );
}

function signRecording(ctx: AppContext, id: string, expires: number) {
  return createHmac('sha256', ctx.config.jwtSecret).update(`recording:${id}:${expires}`).digest('base64url');
}
