import type { FastifyRequest } from 'fastify';
import { DomainError } from './errors.js';

export type UploadedFile = { field: string; data: Buffer; mimeType: string; fileName: string };
export type MultipartForm = { fields: Record<string, string>; file?: UploadedFile };

/**
 * Reads a multipart form with at most one file, held in memory within `maxFileBytes` (413 beyond). Files under
 * other names than `fileFields` are skipped unread; not multipart at all is a 415.
 */
export async function readMultipart(
  request: FastifyRequest,
  opts: { maxFileBytes: number; fileFields?: string[]; maxFieldBytes?: number; maxFields?: number },
): Promise<MultipartForm> {
  const { fields, files } = await readMultipartFiles(request, { ...opts, maxFiles: 1 });
  return { fields, file: files[0] };
}

/** The same with up to `maxFiles` files; one more is a 413 rather than silently dropped. */
export async function readMultipartFiles(
  request: FastifyRequest,
  opts: { maxFileBytes: number; maxFiles: number; fileFields?: string[]; maxFieldBytes?: number; maxFields?: number },
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  if (!request.isMultipart()) throw new DomainError(415, 'unsupported_media_type', 'Send this as multipart/form-data');
  const form: { fields: Record<string, string>; files: UploadedFile[] } = { fields: {}, files: [] };
  const limits = { fileSize: opts.maxFileBytes, files: opts.maxFiles, fields: opts.maxFields ?? 10, ...(opts.maxFieldBytes ? { fieldSize: opts.maxFieldBytes } : {}) };
  for await (const part of request.parts({ limits })) {
    if (part.type === 'file') {
      if (opts.fileFields && !opts.fileFields.includes(part.fieldname)) {
        part.file.resume();
        continue;
      }
      const data = await part.toBuffer();
      if (part.file.truncated) throw new DomainError(413, 'payload_too_large', 'The file is too large');
      form.files.push({ field: part.fieldname, data, mimeType: part.mimetype, fileName: part.filename ?? '' });
    } else {
      form.fields[part.fieldname] = String(part.value);
    }
  }
  return form;
}
