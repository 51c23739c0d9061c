import { z } from 'zod';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { readMultipart } from '../../http/multipart.js';
import { errorResponses, fileResponse } from '../../http/responses.js';
import { requireOwnedSession } from '../consultation_sessions/service.js';
import {
  findVersion,
  latestVersion,
  listFeedback,
  requestChange,
  resolveDocumentKey,
  saveFeedback,
  signDocument,
  startGeneration,
  confirmChecked,
  type DocumentRow,
} from './service.js';
import { documentEnvelope, documentView } from './view.js';
import { followRemotely } from './remote-follow.js';
import { listChunks } from '../consultation_sessions/repository.js';
import { transcribeUpload } from '../../ai/transcribe-upload.js';

const params = z.object({ id: z.uuid({ error: 'invalid_id' }), doc: z.string().min(1).max(100) });
const MAX_CHANGE_CHARS = 100_000;
/** Far above any document's real count of versions, and inside the database's integer. */
const MAX_VERSION = 1_000_000;
/** Spec §5: a voice command lasts up to 1:30. */
export const VOICE_COMMAND_MAX_SECONDS = 90;
const versionQuery = z.object({ version: z.coerce.number().int().min(1).max(MAX_VERSION).optional() });
const feedbackSchema = z.object({ version: z.number().int(), rating: z.number().int(), comment: z.string().nullable() });

export function generatedDocumentsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/consultation_sessions/:id/generated_documents/:doc';
  /** The audio parts still stored, asked for only when the version links sentences to audio. */
  const keptAudio = async (row: DocumentRow): Promise<Set<string>> => {
    if (!row.evidence?.sentences.some((s) => s.spans.some((span) => span.audio))) return new Set();
    return new Set((await listChunks(ctx.db, row.sessionId)).filter((c) => !c.audioDeletedAt).map((c) => c.id));
  };
  const view = async (row: DocumentRow) =>
    documentView(row, (await latestVersion(ctx, row.sessionId, row.documentKey))?.version ?? row.version, await keptAudio(row));

  app.post(
    base,
    {
      onRequest: preHandler,
      schema: {
        params,
        response: { 202: documentEnvelope.describe('The version being written (follow it with …/stream)'), ...errorResponses(400, 401, 402, 404, 409, 410) },
      },
    },
    async (request, reply) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id);
      const row = await startGeneration(ctx, session, request.params.doc);
      return reply.status(202).send({ generated_document: await view(row) });
    },
  );

  app.get(
    base,
    { onRequest: preHandler, schema: { params, querystring: versionQuery, response: { 200: documentEnvelope, ...errorResponses(400, 401, 404, 410) } } },
    async (request) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'read');
      const key = resolveDocumentKey(session, request.params.doc);
      const row = request.query.version ? await findVersion(ctx, session.id, key, request.query.version) : await latestVersion(ctx, session.id, key);
      if (!row) throw notFound('This document has not been generated yet');
      return { generated_document: await view(row) };
    },
  );

  /** The text as it is written (Server-Sent Events): `delta` events, then `done` or `failed`. */
  app.get(
    `${base}/stream`,
    {
      onRequest: preHandler,
      schema: {
        params,
        querystring: versionQuery,
        response: {
          200: fileResponse("Server-Sent Events: 'delta' events ({ text }) as the text is written, then 'done' or 'failed' ({})", ['text/event-stream']),
          ...errorResponses(400, 401, 404, 410),
        },
      },
    },
    async (request, reply) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id, 'read');
      const key = resolveDocumentKey(session, request.params.doc);
      const row = request.query.version ? await findVersion(ctx, session.id, key, request.query.version) : await latestVersion(ctx, session.id, key);
      if (!row) throw notFound('This document has not been generated yet');
      reply.hijack();
      const res = reply.raw;
      const stopping = ctx.draining.aborted;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: stopping ? 'close' : 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      // This process is stopping: the stream ends without an outcome, its connection with it, and the browser follows
      // the document again through another process (the writing goes on there, or is taken over).
      const endOnDrain = () => {
        res.end();
        res.socket?.end();
      };
      if (stopping) return endOnDrain();
      ctx.draining.addEventListener('abort', endOnDrain, { once: true });
      res.on('close', () => ctx.draining.removeEventListener('abort', endOnDrain));
      const following = ctx.liveDocuments.follow(row.id, (e) => {
        if (e.type === 'delta') send('delta', { text: e.text });
        else {
          send(e.type, {});
          res.end();
        }
      });
      if (!following) {
        const stored = (await findVersion(ctx, session.id, key, row.version))!;
        if (stored.status === 'generating') {
          // Gone already: nothing to follow (its 'close' may have passed while the version was read).
          if (res.destroyed) return;
          // Being written by another process of this server: followed through the event bus and the database.
          const stop = followRemotely(ctx, stored.id, {
            delta: (text) => send('delta', { text }),
            end: (outcome) => {
              if (outcome !== 'restarted') send(outcome ? 'done' : 'failed', {});
              res.end();
            },
          });
          res.on('close', stop);
          return;
        }
        // Already finished: the stored text, then the end.
        send('delta', { text: stored.text });
        send(stored.status === 'failed' ? 'failed' : 'done', {});
        res.end();
        return;
      }
      if (following.textSoFar) send('delta', { text: following.textSoFar });
      request.raw.on('close', following.stop);
    },
  );

  /**
   * The clinician signs the latest version (optionally naming the version they read): it stops being a draft, and the
   * record receives it as final. Any change afterwards is a new, unsigned version.
   */
  app.post(
    `${base}/sign`,
    {
      onRequest: preHandler,
      schema: {
        params,
        body: z
          .object({
            version: z.number().int().min(1).max(MAX_VERSION).optional().describe('The version the clinician read; refused (409) when a newer one exists'),
          })
          .nullish(),
        response: { 200: documentEnvelope.describe('The signed version'), ...errorResponses(400, 401, 404, 409, 410) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const session = await requireOwnedSession(ctx, user.id, request.params.id);
      const key = resolveDocumentKey(session, request.params.doc);
      const row = await signDocument(ctx, session, key, user.id, request.body?.version);
      return { generated_document: await view(row) };
    },
  );

  /** "I have checked them": the clinician confirms flagged terms of a version, which then no longer hold the text back. */
  app.post(
    `${base}/checked`,
    {
      onRequest: preHandler,
      schema: {
        params,
        body: z.object({ version: z.number().int().min(1).max(MAX_VERSION), terms: z.array(z.string().min(1).max(500)).min(1).max(200) }),
        response: { 200: documentEnvelope.describe('The version, its confirmed terms no longer flagged'), ...errorResponses(400, 401, 404, 409, 410) },
      },
    },
    async (request) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id);
      const key = resolveDocumentKey(session, request.params.doc);
      const row = await confirmChecked(ctx, session, key, request.body.version, request.body.terms);
      return { generated_document: await view(row) };
    },
  );

  const feedbackBody = z.object({
    rating: z.number().int().min(1).max(5),
    comment: z.string().max(5000).optional(),
    version: z.number().int().min(1).max(MAX_VERSION).optional(),
  });

  /** The clinician's rating (1–5) of a version (the latest by default), with an optional comment. */
  app.post(
    `${base}/feedback`,
    {
      onRequest: preHandler,
      schema: { params, body: feedbackBody, response: { 201: z.object({ feedback: feedbackSchema }), ...errorResponses(400, 401, 404, 409, 410) } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const session = await requireOwnedSession(ctx, user.id, request.params.id);
      const key = resolveDocumentKey(session, request.params.doc);
      const row = request.body.version ? await findVersion(ctx, session.id, key, request.body.version) : await latestVersion(ctx, session.id, key);
      if (!row) throw notFound('This document has not been generated yet');
      const saved = await saveFeedback(ctx, row.id, user.id, request.body.rating, request.body.comment);
      return reply.status(201).send({ feedback: { version: row.version, rating: saved.rating, comment: saved.comment } });
    },
  );

  app.get(
    `${base}/feedback`,
    {
      onRequest: preHandler,
      schema: {
        params,
        response: {
          200: z.object({ feedback: z.array(feedbackSchema).describe("The caller's rating of each version, oldest first") }),
          ...errorResponses(400, 401, 404, 410),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const session = await requireOwnedSession(ctx, user.id, request.params.id, 'read');
      const key = resolveDocumentKey(session, request.params.doc);
      return { feedback: await listFeedback(ctx, session.id, key, user.id) };
    },
  );

  /** A change: multipart `requested_changes` with `text` (instructions) or `markdown` (the new text). */
  app.post(
    `${base}/regenerate`,
    {
      onRequest: preHandler,
      schema: {
        params,
        response: { 202: documentEnvelope.describe('The new version being written'), ...errorResponses(400, 401, 402, 404, 409, 410, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const session = await requireOwnedSession(ctx, currentUser(request).id, request.params.id);
      const { fields, file } = await readMultipart(request, { maxFileBytes: ctx.config.maxAudioChunkBytes, maxFieldBytes: MAX_CHANGE_CHARS * 4, maxFields: 5 });
      const audio = file?.data;
      let change: { kind: 'text' | 'markdown'; content: string } | undefined;
      if (audio?.length) {
        // A spoken change request: transcribed first (up to 1:30), then applied like a written one.
        const spoken = await transcribeUpload(ctx.transcriber, ctx.blobs, {
          data: audio,
          language: currentUser(request).language,
          maxSeconds: VOICE_COMMAND_MAX_SECONDS,
        });
        change = { kind: 'text', content: spoken };
      }
      const raw = fields.requested_changes;
      if (change) {
        // already a voice command
      } else if (raw !== undefined) {
        try {
          const parsed = JSON.parse(raw) as { text?: unknown; markdown?: unknown };
          if (typeof parsed.markdown === 'string') change = { kind: 'markdown', content: parsed.markdown };
          else if (typeof parsed.text === 'string') change = { kind: 'text', content: parsed.text };
        } catch {
          change = { kind: 'text', content: raw };
        }
      } else if (fields.markdown !== undefined) change = { kind: 'markdown', content: fields.markdown };
      else if (fields.text !== undefined) change = { kind: 'text', content: fields.text };
      if (!change?.content.trim()) {
        throw new DomainError(400, 'invalid_request', 'Say what to change', { requested_changes: 'required' });
      }
      if (change.content.length > MAX_CHANGE_CHARS) throw new DomainError(400, 'invalid_request', 'The change is too long', { requested_changes: 'too_long' });
      const row = await requestChange(ctx, session, request.params.doc, change);
      return reply.status(202).send({ generated_document: await view(row) });
    },
  );
}
