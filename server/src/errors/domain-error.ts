import type { ErrorCode } from '../../../contract/errors.js';

/**
 * Thrown by services, workers and engines alike; the HTTP error handler (http/errors.ts) turns it into the API's
 * error shape. It lives outside the transport so that code which never answers a request can still throw it.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new DomainError(404, 'not_found', what);
export const unauthorized = () => new DomainError(401, 'unauthorized', 'Authentication required');
