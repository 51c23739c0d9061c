import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { customDocumentExamples, customDocumentRequests } from '../../db/schema.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { readMultipart } from '../../http/multipart.js';
import { errorResponses, noContent } from '../../http/responses.js';
import { SELECTABLE_DOCUMENTS } from '../consultation_types/catalogue.js';
import { contentMatches, EXTENSION_OF } from './example-content.js';

const MAX_EXAMPLES = 5;
const MAX_EXAMPLE_BYTES = 10 * 1024 * 1024;
/** Examples are read by support: documents and pictures of documents, nothing executable (the bytes are checked too). */
const EXAMPLE_TYPES = new Set([
  'application/pdf',
  'text/plain',
  'text/markdown',
  'image/png',
  'image/jpeg',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
]);

const section = z
  .object({
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().max(2000).default(''),
    change_request: z.string().trim().max(2000).default(''),
  })
  .strict();
const body = z
  .object({
    custom_document_request: z
      .object({
        title: z.string().trim().min(1).max(200),
        base_document: z.string().max(100).nullable().optional(),
        sections: z.array(section).max(40).default([]),
        other_comments: z.string().trim().max(5000).default(''),
      })
      .strict(),
  })
  .strict();
const params = z.object({ id: z.uuid({ error: 'invalid_id' }) });

type Row = typeof customDocumentRequests.$inferSelect;

/** A request as the clinician reads it back (`view` below). */
const requestSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  base_document: z.string().nullable(),
  sections: z.array(z.object({ title: z.string(), description: z.string(), change_request: z.string() })),
  other_comments: z.string(),
  status: z.enum(['draft', 'submitted', 'approved']).describe('submitted: waiting for support, which blocks a new request and the editing of drafts'),
  created_at: z.iso.datetime(),
  submitted_at: z.iso.datetime().nullable(),
  approved_at: z.iso.datetime().nullable(),
  examples: z.array(z.object({ id: z.uuid(), file_name: z.string(), mime_type: z.string(), size_bytes: z.number().int() })),
});
const oneSchema = z.object({ custom_document_request: requestSchema });

/** Where a request's example files live in the blob store (deleted with the draft or the account). */
export const customDocumentBlobPrefix = (requestId: string) => `custom_documents/${requestId}/`;

/**
 * Spec §3 custom document request: the clinician builds the document they want (title, optional base document,
 * sections with descriptions and change requests, example files, vocabulary comments), then sends it to support.
 * Only drafts can change; every call is limited to the clinician's own requests.
 */
export function customDocumentRequestsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/custom_document_requests';

  async function own(userId: string, id: string): Promise<Row> {
    const [row] = await ctx.db
      .select()
      .from(customDocumentRequests)
      .where(and(eq(customDocumentRequests.id, id), eq(customDocumentRequests.userId, userId)));
    if (!row) throw notFound('Request not found');
    return row;
  }
  /** A request sent and not yet approved by support blocks a new request and the editing of any other. */
  async function noPending(userId: string) {
    const [pending] = await ctx.db
      .select({ id: customDocumentRequests.id })
      .from(customDocumentRequests)
      .where(and(eq(customDocumentRequests.userId, userId), eq(customDocumentRequests.status, 'submitted')))
      .limit(1);
    if (pending)
      throw new DomainError(409, 'custom_request_pending', 'A request sent to support is waiting for approval; a new one can be made once it is approved');
  }
  const draft = async (userId: string, id: string) => {
    const row = await own(userId, id);
    if (row.status !== 'draft') throw new DomainError(409, 'invalid_request', 'This request was already sent');
    await noPending(userId);
    return row;
  };
  async function view(row: Row) {
    const examples = await ctx.db
      .select()
      .from(customDocumentExamples)
      .where(eq(customDocumentExamples.requestId, row.id))
      .orderBy(asc(customDocumentExamples.createdAt));
    return {
      id: row.id,
      title: row.title,
      base_document: row.baseDocument,
      sections: row.sections,
      other_comments: row.otherComments,
      status: row.status as 'draft' | 'submitted' | 'approved',
      created_at: row.createdAt.toISOString(),
      submitted_at: row.submittedAt?.toISOString() ?? null,
      approved_at: row.approvedAt?.toISOString() ?? null,
      examples: examples.map((e) => ({ id: e.id, file_name: e.fileName, mime_type: e.mimeType, size_bytes: e.sizeBytes })),
    };
  }
  const checkBase = (doc: string | null | undefined) => {
    if (doc && !Object.hasOwn(SELECTABLE_DOCUMENTS, doc))
      throw new DomainError(400, 'invalid_request', 'Unknown base document', { 'custom_document_request.base_document': 'unknown' });
  };

  app.get(
    base,
    { onRequest: preHandler, schema: { response: { 200: z.object({ custom_document_requests: z.array(requestSchema) }), ...errorResponses(401) } } },
    async (request) => {
      const rows = await ctx.db
        .select()
        .from(customDocumentRequests)
        .where(eq(customDocumentRequests.userId, currentUser(request).id))
        .orderBy(desc(customDocumentRequests.createdAt));
      return { custom_document_requests: await Promise.all(rows.map(view)) };
    },
  );

  app.get(`${base}/:id`, { onRequest: preHandler, schema: { params, response: { 200: oneSchema, ...errorResponses(400, 401, 404) } } }, async (request) => ({
    custom_document_request: await view(await own(currentUser(request).id, request.params.id)),
  }));

  app.post(base, { onRequest: preHandler, schema: { body, response: { 201: oneSchema, ...errorResponses(400, 401, 409) } } }, async (request, reply) => {
    const r = request.body.custom_document_request;
    checkBase(r.base_document);
    await noPending(currentUser(request).id);
    const [row] = await ctx.db
      .insert(customDocumentRequests)
      .values({ userId: currentUser(request).id, title: r.title, baseDocument: r.base_document ?? null, sections: r.sections, otherComments: r.other_comments })
      .returning();
    return reply.status(201).send({ custom_document_request: await view(row!) });
  });

  app.put(
    `${base}/:id`,
    { onRequest: preHandler, schema: { params, body, response: { 200: oneSchema, ...errorResponses(400, 401, 404, 409) } } },
    async (request) => {
      const userId = currentUser(request).id;
      await draft(userId, request.params.id);
      const r = request.body.custom_document_request;
      checkBase(r.base_document);
      const [row] = await ctx.db
        .update(customDocumentRequests)
        .set({ title: r.title, baseDocument: r.base_document ?? null, sections: r.sections, otherComments: r.other_comments, updatedAt: new Date() })
        .where(eq(customDocumentRequests.id, request.params.id))
        .returning();
      return { custom_document_request: await view(row!) };
    },
  );

  app.delete(
    `${base}/:id`,
    { onRequest: preHandler, schema: { params, response: { 204: noContent('Deleted, with its examples'), ...errorResponses(400, 401, 404, 409) } } },
    async (request, reply) => {
      // A draft can be thrown away even while another request waits for approval (only editing is blocked then).
      const row = await own(currentUser(request).id, request.params.id);
      if (row.status !== 'draft') throw new DomainError(409, 'invalid_request', 'This request was already sent');
      await ctx.blobs.deletePrefix(customDocumentBlobPrefix(request.params.id));
      await ctx.db.delete(customDocumentRequests).where(eq(customDocumentRequests.id, request.params.id));
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/:id/examples`,
    { onRequest: preHandler, schema: { params, response: { 201: oneSchema, ...errorResponses(400, 401, 404, 409, 413, 415) } } },
    async (request, reply) => {
      const row = await draft(currentUser(request).id, request.params.id);
      const { file } = await readMultipart(request, { maxFileBytes: MAX_EXAMPLE_BYTES, fileFields: ['file'] });
      if (!file?.data.length) throw new DomainError(400, 'invalid_request', 'Choose a file', { file: 'required' });
      const mime = file.mimeType.split(';')[0]!.trim().toLowerCase();
      if (!EXAMPLE_TYPES.has(mime)) throw new DomainError(415, 'unsupported_media_type', 'Examples can be PDF, Word, text or image files');
      // A file's name and declared type are the sender's word: its first bytes must be what it claims to be.
      if (!contentMatches(mime, file.data)) throw new DomainError(415, 'file_content_mismatch', 'The file is not the kind of file its name says');
      const count = (await ctx.db.select({ id: customDocumentExamples.id }).from(customDocumentExamples).where(eq(customDocumentExamples.requestId, row.id)))
        .length;
      if (count >= MAX_EXAMPLES) throw new DomainError(409, 'invalid_request', `At most ${MAX_EXAMPLES} examples`);
      const blobKey = `${customDocumentBlobPrefix(row.id)}${randomUUID()}`;
      await ctx.blobs.put(blobKey, file.data);
      // The name the clinician gave, with the extension of the type its bytes are: "setup.exe" sent as a PDF is kept
      // as "setup.pdf", so nobody opening it runs it.
      const stem =
        (file.fileName || 'example')
          .replace(/\.[^.]*$/, '')
          .replace(/[^\p{L}\p{N} _()-]/gu, '_')
          .slice(0, 180) || 'example';
      const fileName = `${stem}.${EXTENSION_OF[mime]}`;
      await ctx.db.insert(customDocumentExamples).values({ requestId: row.id, fileName, mimeType: mime, sizeBytes: file.data.length, blobKey });
      return reply.status(201).send({ custom_document_request: await view(row) });
    },
  );

  app.delete(
    `${base}/:id/examples/:exampleId`,
    {
      onRequest: preHandler,
      schema: {
        params: params.extend({ exampleId: z.uuid({ error: 'invalid_id' }) }),
        response: { 204: noContent('Example deleted'), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const row = await draft(currentUser(request).id, request.params.id);
      const [example] = await ctx.db
        .select()
        .from(customDocumentExamples)
        .where(and(eq(customDocumentExamples.id, request.params.exampleId), eq(customDocumentExamples.requestId, row.id)));
      if (!example) throw notFound('Example not found');
      await ctx.blobs.delete(example.blobKey);
      await ctx.db.delete(customDocumentExamples).where(eq(customDocumentExamples.id, example.id));
      return reply.status(204).send(null);
    },
  );

  /** Sending: support gets a mail with the whole request; the request can no longer change. */
  app.post(
    `${base}/:id/submit`,
    { onRequest: preHandler, schema: { params, response: { 200: oneSchema, ...errorResponses(400, 401, 404, 409) } } },
    async (request) => {
      const user = currentUser(request);
      const row = await draft(user.id, request.params.id);
      if (row.sections.length === 0) throw new DomainError(400, 'invalid_request', 'Add at least one section', { sections: 'required' });
      // Only from draft, and at most one pending per clinician (a unique index): two sends at once send one.
      let sent: Row | undefined;
      try {
        [sent] = await ctx.db
          .update(customDocumentRequests)
          .set({ status: 'submitted', submittedAt: new Date() })
          .where(and(eq(customDocumentRequests.id, row.id), eq(customDocumentRequests.status, 'draft')))
          .returning();
      } catch (err) {
        if (isUniqueViolation(err)) throw new DomainError(409, 'custom_request_pending', 'A request sent to support is waiting for approval');
        throw err;
      }
      if (!sent) throw new DomainError(409, 'invalid_request', 'This request was already sent');
      const v = await view(sent);
      const text = [
        `From: ${user.name} <${user.email}> (${user.id}), language ${user.language}`,
        `Request: ${v.id}`,
        `Title: ${v.title}`,
        `Base document: ${v.base_document ?? 'none'}`,
        '',
        ...v.sections.flatMap((s, i) =>
          [`${i + 1}. ${s.title}`, s.description && `   ${s.description}`, s.change_request && `   Change requested: ${s.change_request}`].filter(Boolean),
        ),
        '',
        `Other comments (vocabulary): ${v.other_comments || 'none'}`,
        `Examples: ${v.examples.map((e) => e.file_name).join(', ') || 'none'}`,
        '',
      ].join('\n');
      await ctx.mailer.send({ to: ctx.config.supportEmail, subject: `[Custom document] ${v.title}`, text });
      return { custom_document_request: v };
    },
  );
}
