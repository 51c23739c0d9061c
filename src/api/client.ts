/**
 * The one HTTP client (ky): bearer token, accept-language, client-version and a 120 s timeout on every call.
 * A 401 signs the user out; `x-client-deprecated` asks the host to reload (once per outdated version across
 * tabs, never on consultation pages — the host decides). Failures come out as one typed ApiFailure.
 */
import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import type { ApiError } from '../../contract/errors';

export const CLIENT_VERSION = '0.0.20';
export const REQUEST_TIMEOUT_MS = 120_000;

export type ApiFailure =
  | { kind: 'http'; status: number; code: string; message: string; fields: Record<string, string> }
  | { kind: 'network' }
  | { kind: 'timeout' };

export class ApiFailureError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.kind === 'http' ? `${failure.status} ${failure.code}` : failure.kind);
  }
}

export type ApiClientHost = {
  getToken: () => string | undefined;
  getLocale: () => string;
  /** This browser's id, sent with the consultation calls so the server knows which device records (one at a time). */
  getDeviceId?: () => string | undefined;
  onUnauthorized: () => void;
  onDeprecated: () => void;
  fetch?: typeof fetch;
  prefixUrl?: string;
};

export function createApiClient(host: ApiClientHost): KyInstance {
  return ky.create({
    prefix: host.prefixUrl ?? '/',
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
    fetch: host.fetch,
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const token = host.getToken();
          if (token) request.headers.set('authorization', `Bearer ${token}`);
          request.headers.set('accept-language', host.getLocale());
          request.headers.set('client-version', CLIENT_VERSION);
          const device = host.getDeviceId?.();
          if (device && new URL(request.url).pathname.startsWith('/v1/consultation_sessions')) request.headers.set('x-device-id', device);
        },
      ],
      afterResponse: [
        ({ response }) => {
          if (response.headers.get('x-client-deprecated') === 'true') host.onDeprecated();
          if (response.status === 401 && host.getToken()) host.onUnauthorized();
        },
      ],
    },
  });
}

/** Turns whatever a call threw into an ApiFailureError (network errors and timeouts included). */
export async function toApiFailure(err: unknown): Promise<ApiFailureError> {
  if (err instanceof ApiFailureError) return err;
  if (err instanceof TimeoutError) return new ApiFailureError({ kind: 'timeout' });
  if (err instanceof HTTPError) {
    // ky has read the body already: the parsed JSON (or text) is on the error.
    const body = typeof err.data === 'object' && err.data !== null ? (err.data as Partial<ApiError>) : undefined;
    return new ApiFailureError({
      kind: 'http',
      status: err.response.status,
      code: body?.error?.code ?? 'http_error',
      message: body?.error?.message ?? err.message,
      fields: body?.error?.fields ?? {},
    });
  }
  return new ApiFailureError({ kind: 'network' });
}

/** Runs a call and rethrows any failure as ApiFailureError. */
export async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw await toApiFailure(err);
  }
}
