/**
 * Every request has an id, carried by every log line written while it is served and answered in the
 * `X-Request-Id` header, so a clinician can quote it to support and the operator can find the request's lines:
 *
 * - an incoming `X-Request-Id` (from the hospital's proxy or load balancer) is kept when it is a sane short token
 *   (1–64 letters, digits, `.`, `_`, `-`), so one id follows the request across the proxy's and this server's logs;
 *   anything else (too long, spaces, a would-be log injection) is ignored and a UUID is made instead;
 * - Fastify puts it in `request.log` (as `reqId`, its default label); lines logged through the app's own logger (`app.log`, the loggers
 *   handed to services) while the request is served, and by background work the request started (a document
 *   being written after the answer), get it too, from an AsyncLocalStorage read by pino's mixin. Work the
 *   process started on its own (the transcription queue, the sweeps) carries none.
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { App } from './context.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;

const current = new AsyncLocalStorage<string>();

/** The id of the request being served in this async context, if any. */
export const currentRequestId = (): string | undefined => current.getStore();

/** Fastify's genReqId: the caller's id when sane, else a new UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = Array.isArray(given) ? undefined : given?.trim();
  return id && SANE_ID.test(id) ? id : randomUUID();
}

/** pino's mixin: the request's id on lines logged outside `request.log` (which has it bound already). */
export function requestIdMixin(_merge: object, _level: number, logger: Logger): object {
  const id = current.getStore();
  if (!id || 'reqId' in logger.bindings()) return {};
  return { reqId: id };
}

/** The Fastify options that make the ids (the header is read by requestIdFor, never taken as is). */
export const requestIdOptions = { genReqId: requestIdFor, requestIdHeader: false } as const;

const scopes = new WeakMap<FastifyRequest, AsyncResource>();

/**
 * Answers the id in `X-Request-Id` and serves the request inside its async context. Register first: hooks and
 * handlers registered after it run inside. The body parser may leave the context (as @fastify/request-context
 * notes), so it is entered again before validation.
 */
export function registerRequestIds(app: App): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    current.run(request.id, () => {
      scopes.set(request, new AsyncResource('request-id'));
      done();
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
}
