import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError, ErrorCode } from '../../../contract/errors.js';
import { DomainError } from '../errors/domain-error.js';
import { sqlState } from '../errors/safe-errors.js';

// Routes import the errors they throw from here, next to the handler that answers them.
export { DomainError, notFound, unauthorized } from '../errors/domain-error.js';

function send(status: number, code: ErrorCode, message: string, fields?: Record<string, string>): { status: number; body: ApiError } {
  return { status, body: { error: { code, message, ...(fields ? { fields } : {}) } } };
}

/** Maps every failure to `{ error: { code, message, fields } }`; 5xx details never leave the server. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let out;
    if (err instanceof DomainError) {
      out = send(err.status, err.code, err.message, err.fields);
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || (err.validationContext ?? 'body');
        // An unknown key (strict objects) names the key itself, so the client sees what it must not send.
        const keys = (v.params as { keys?: unknown }).keys;
        if (v.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
          for (const k of keys) fields[v.instancePath === '/' ? String(k) : `${key}.${String(k)}`] = 'not_allowed';
        } else if (!(key in fields)) {
          fields[key] = v.message ?? 'invalid';
        }
      }
      out = send(400, 'invalid_request', 'Invalid request', fields);
    } else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err instanceof SyntaxError && err.statusCode === 400)) {
      out = send(400, 'invalid_json', 'The request body is not valid JSON');
    } else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      out = send(400, 'invalid_json', 'The request body is empty');
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      out = send(413, 'payload_too_large', 'The request body is too large');
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      out = send(415, 'unsupported_media_type', 'Unsupported content type');
    } else if (err.statusCode === 429) {
      out = send(429, 'too_many_requests', 'Too many requests, try again later');
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      out = send(err.statusCode, 'invalid_request', err.message);
    } else if (sqlState(err)?.startsWith('22')) {
      // A value the database refuses (out of range, malformed) that validation let through: the request's fault.
      request.log.warn({ err }, 'database refused a value of the request');
      out = send(400, 'invalid_request', 'A value in the request cannot be stored');
    } else if (sqlState(err)?.startsWith('23')) {
      request.log.warn({ err }, 'request conflicts with stored data');
      out = send(409, 'conflict', 'The request conflicts with the data already stored');
    } else {
      request.log.error({ err }, 'unhandled error');
      out = send(500, 'internal_error', 'Internal server error');
      // The one thing support needs to find what happened in the log.
      out.body.error.request_id = request.id;
    }
    return reply.status(out.status).send(out.body);
  });
}
