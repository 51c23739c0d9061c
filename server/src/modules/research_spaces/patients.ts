import { randomUUID } from 'node:crypto';
import type { onRequestAsyncHookHandler } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { researchPatientFiles, researchPatients } from '../../db/schema.js';
import { currentUser } from '../../http/authenticate.js';
import type { App } from '../../http/context.js';
import type { AppContext } from '../../app-context.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { readMultipartFiles, type UploadedFile } from '../../http/multipart.js';
import { errorResponses, fileResponse, noContent } from '../../http/responses.js';
import { patientSchema } from './schemas.js';
import { looksScanned, ocrAvailable } from './pdf-ocr.js';
import { readPdfText } from './pdf-text.js';
import { patientsView, researchBlobPrefix, spaceFor } from './service.js';

/** Spec §5: at most 10 PDF files per patient upload. */
export const MAX_PATIENT_FILES = 10;
const MAX_PDF_BYTES = 20 * 1024 * 1024;

const id = z.uuid({ error: 'invalid_id' });
const spaceParams = z.object({ spaceId: id });
const patientParams = spaceParams.extend({ patientId: id });

async function readUpload(request: Parameters<typeof readMultipartFiles>[0]) {
  try {
    return await readMultipartFiles(request, { maxFiles: MAX_PATIENT_FILES, maxFileBytes: MAX_PDF_BYTES, fileFields: ['files'], maxFieldBytes: 1000 });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT')
      throw new DomainError(413, 'payload_too_large', `At most ${MAX_PATIENT_FILES} PDF files per patient`);
    const tooLarge = err instanceof DomainError ? err.status === 413 : (err as { statusCode?: number }).statusCode === 413;
    if (tooLarge) throw new DomainError(413, 'payload_too_large', `Each PDF can be at most ${MAX_PDF_BYTES / 1024 / 1024} MB`);
    throw err;
  }
}

/** Every file is read before anything is stored: one unreadable file leaves the patient unsaved, with its name. */
async function readAll(files: UploadedFile[]) {
  const read = [];
  for (const file of files) {
    const name = (file.fileName || 'document.pdf').replace(/[^\p{L}\p{N} ._()-]/gu, '_').slice(0, 200);
    try {
      read.push({ name, data: file.data, ...(await readPdfText(file.data)) });
    } catch (err) {
      if (err instanceof DomainError) throw new DomainError(err.status, err.code, `${name}: ${err.message}`, { files: name });
      throw err;
    }
  }
  return read;
}

/** Patients of a space: each one the PDFs dropped together (spec §2), with their text read once for screening. */
export function patientsRoutes(app: App, ctx: AppContext, preHandler: onRequestAsyncHookHandler) {
  const base = '/v1/research_spaces/:spaceId/patients';

  app.get(
    base,
    {
      onRequest: preHandler,
      schema: { params: spaceParams, response: { 200: z.object({ patients: z.array(patientSchema) }), ...errorResponses(400, 401, 404) } },
    },
    async (request) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      return { patients: await patientsView(ctx.db, space.id) };
    },
  );

  app.post(
    base,
    {
      onRequest: preHandler,
      schema: { params: spaceParams, response: { 201: z.object({ patient: patientSchema }), ...errorResponses(400, 401, 404, 413, 415, 422) } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const space = await spaceFor(ctx.db, user, request.params.spaceId);
      const { fields, files } = await readUpload(request);
      if (files.length === 0) throw new DomainError(400, 'invalid_request', 'Add at least one PDF file', { files: 'required' });
      const read = await readAll(files);
      const label = (fields.label ?? '').trim().slice(0, 200) || read[0]!.name.replace(/\.pdf$/i, '');
      // Files first, rows after: a failure in between leaves no patient pointing at missing files.
      const patientId = randomUUID();
      const prefix = `${researchBlobPrefix(space.id)}${patientId}/`;
      const stored: (typeof researchPatientFiles.$inferInsert)[] = [];
      try {
        for (const file of read) {
          const blobKey = `${prefix}${randomUUID()}.pdf`;
          await ctx.blobs.put(blobKey, file.data);
          // Pictures of pages go to the OCR job; their text arrives a little later.
          const textStatus = !looksScanned(file.text, file.pages) ? 'read' : ocrAvailable() ? 'ocr_pending' : file.text ? 'read' : 'no_text';
          stored.push({
            patientId,
            fileName: file.name,
            sizeBytes: file.data.length,
            pages: file.pages,
            blobKey,
            text: file.text,
            textStatus,
            language: user.language,
          });
        }
        await ctx.db.transaction(async (tx) => {
          await tx.insert(researchPatients).values({ id: patientId, spaceId: space.id, label });
          await tx.insert(researchPatientFiles).values(stored);
        });
      } catch (err) {
        await ctx.blobs.deletePrefix(prefix);
        throw err;
      }
      if (stored.some((f) => f.textStatus === 'ocr_pending')) ctx.ocrQueue.wake();
      const [patient] = await patientsView(ctx.db, space.id, patientId);
      return reply.status(201).send({ patient: patient! });
    },
  );

  /** The original PDF, for the researcher to check a quote against the record. */
  app.get(
    `${base}/:patientId/files/:fileId`,
    {
      onRequest: preHandler,
      schema: {
        params: patientParams.extend({ fileId: id }),
        response: { 200: fileResponse('The PDF as it was added', ['application/pdf']), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      const [file] = await ctx.db
        .select({ blobKey: researchPatientFiles.blobKey, fileName: researchPatientFiles.fileName })
        .from(researchPatientFiles)
        .innerJoin(researchPatients, eq(researchPatients.id, researchPatientFiles.patientId))
        .where(
          and(eq(researchPatientFiles.id, request.params.fileId), eq(researchPatients.id, request.params.patientId), eq(researchPatients.spaceId, space.id)),
        );
      if (!file) throw notFound('File not found');
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="record.pdf"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
        .header('cache-control', 'private, no-store')
        .send(ctx.blobs.read(file.blobKey));
    },
  );

  app.delete(
    `${base}/:patientId`,
    {
      onRequest: preHandler,
      schema: { params: patientParams, response: { 204: noContent('Deleted, with its files and results'), ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      const space = await spaceFor(ctx.db, currentUser(request), request.params.spaceId);
      const [row] = await ctx.db
        .delete(researchPatients)
        .where(and(eq(researchPatients.id, request.params.patientId), eq(researchPatients.spaceId, space.id)))
        .returning();
      if (!row) throw notFound('Patient not found');
      await ctx.blobs.deletePrefix(`${researchBlobPrefix(space.id)}${row.id}/`);
      ctx.requestScrub();
      return reply.status(204).send(null);
    },
  );
}
