/**
 * Building blocks of the routes' `response` schemas: what each status answers, so the API's description
 * (GET /v1/openapi.json) is complete and the serializer checks every JSON answer against it.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { apiErrorSchema } from '../../../contract/errors.js';

/** What each error status means in this API; the body is always the one error shape (contract/errors.ts). */
export const errorStatusDescriptions = {
  400: 'The request is invalid: a field is missing or wrong (see error.fields), or the body is not JSON',
  401: 'No valid bearer token, or a wrong password',
  402: 'No credits left to pay for this',
  403: 'Signed in, but not allowed to do this',
  404: 'Not found, or not visible to the caller',
  409: 'Conflicts with the state of the stored data',
  410: 'Gone: no longer available',
  413: 'The request body or upload is too large',
  415: 'The content type of the request or upload is not accepted',
  422: 'Well formed, but cannot be processed',
  429: 'Too many requests; try again later',
  502: 'A system this server talks to failed or answered wrongly',
  503: 'Not available right now; try again later',
} as const;
export type ErrorStatus = keyof typeof errorStatusDescriptions;

/** `{ 400: error body, 404: error body, … }` for the statuses given. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]): { [K in S]: typeof apiErrorSchema } {
  return Object.fromEntries(statuses.map((s) => [s, apiErrorSchema])) as { [K in S]: typeof apiErrorSchema };
}

/** An answer without a body (204, or a redirect): declared so, the description shows no content. */
export const noContent = (description = 'Done; no content') => z.null().describe(description);

/** What a handler sends as a file: Fastify passes these through as they are, without serializing them. */
type FileBody = string | Buffer | Uint8Array | Readable;
export const binary = z.custom<FileBody>(() => true).meta({ type: 'string', format: 'binary' });

/**
 * A binary or text answer (audio, PDF, CSV, NDJSON) in the content types given. The handler sends a Buffer, a stream
 * or a string with its content type set, which Fastify passes through without serializing; the schema is only for
 * the description: binary, or `described` for a document whose shape is worth showing (a FHIR Bundle sent as text).
 */
export function fileResponse(description: string, contentTypes: string[], described?: z.ZodType) {
  // Typed as the file it is for the handler, whatever the description shows.
  const schema = (described ?? binary) as typeof binary;
  return { description, content: Object.fromEntries(contentTypes.map((type) => [type, { schema }])) };
}
