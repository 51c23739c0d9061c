import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors/domain-error.js';
import { findNulCharacter, invalidCharacters } from './input-guards.js';

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
  try {
    return await readParts(request, opts);
  } catch (err) {
    // Our own refusals and the plugin's limits (413) keep their answer; anything else the parser threw means a
    // truncated, boundary-less or garbled body, which is the sender's fault, not the server's.
    if (err instanceof DomainError || (typeof (err as { statusCode?: unknown }).statusCode === 'number' && (err as { statusCode: number }).statusCode < 500))
      throw err;
    throw new DomainError(400, 'invalid_multipart', 'The upload could not be read: the form data is incomplete or malformed');
  }
}

async function readParts(
  request: FastifyRequest,
  opts: { maxFileBytes: number; maxFiles: number; fileFields?: string[]; maxFieldBytes?: number; maxFields?: number },
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  const form: { fields: Record<string, string>; files: UploadedFile[] } = { fields: {}, files: [] };
  const limits = {
    fileSize: opts.maxFileBytes,
    files: opts.maxFiles,
    fields: opts.maxFields ?? 10,
    ...(opts.maxFieldBytes ? { fieldSize: opts.maxFieldBytes } : {}),
  };
  for await (const part of request.parts({ limits })) {
    if (part.fieldname.includes('\u0000')) throw invalidCharacters('body');
    if (part.type === 'file') {
      if (opts.fileFields && !opts.fileFields.includes(part.fieldname)) {
        part.file.resume();
        continue;
      }
      if (part.mimetype.includes('\u0000')) throw invalidCharacters(part.fieldname);
      const data = await part.toBuffer();
      if (part.file.truncated) throw new DomainError(413, 'payload_too_large', 'The file is too large');
      // A file name is stored with patient records: a NUL in it would fail the insert.
      form.files.push({ field: part.fieldname, data, mimeType: part.mimetype, fileName: (part.filename ?? '').replaceAll('\u0000', '') });
    } else {
      const value = String(part.value);
      if (findNulCharacter(value, part.fieldname) !== undefined) throw invalidCharacters(part.fieldname);
      form.fields[part.fieldname] = value;
    }
  }
  return form;
}
