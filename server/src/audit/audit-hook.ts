/**
 * Records every request to an audited route (audited-routes.ts) in the audit log, exactly once: who (the signed-in
 * user and their organization, or nobody), what (action, record type, ids), when, from where (the client address as
 * Fastify sees it, so TRUST_PROXY applies; the user agent, shortened) and the outcome (the HTTP status, so refused
 * attempts are recorded too). The event is handed to the writer once the answer is complete: no request waits for
 * the log.
 *
 * A client that closes the connection before the answer is complete gets no `onResponse` from Fastify, yet its
 * request may have been carried out (a transcript saved, a document streamed in part). Such a request is recorded
 * with the outcome `client_disconnected`: at once when part of the answer had been sent (with its status), otherwise
 * once the server settles on an answer it can no longer send (its status says what was done, and the actor is
 * known by then), or after a few seconds if it never does (no status). Whichever way comes first records; the
 * others see it done.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import type { App } from '../http/context.js';
import { CONSULTATION_TYPES } from '../modules/consultation_types/catalogue.js';
import { auditedRoute, type AuditedRoute, type IdSource } from './audited-routes.js';
import type { AuditKeys } from './audit-key.js';
import { createAuditWriter, type AuditWriter } from './audit-writer.js';
import type { AuditEventFields } from './hash-chain.js';

export type AuditLog = AuditWriter & {
  /** Every route the app registered (method and pattern), for the test that no patient-data route is forgotten. */
  readonly routes: readonly { method: string; url: string }[];
};

declare module 'fastify' {
  interface FastifyInstance {
    auditLog: AuditLog;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^\d{1,9}$/;
/** The only document keys a route accepts; anything else in that place of a URL is not kept. */
const DOCUMENT_KEYS = new Set(['main', ...CONSULTATION_TYPES.flatMap((t) => t.documents)]);
/** Kept in place of an id that was sent but is not a valid one (the attempt shows, whatever was typed does not). */
const INVALID = 'invalid';
const MAX_USER_AGENT = 200;
/** How long a request whose client left before any answer may take to settle on one before it is recorded without. */
const SETTLE_MS = 5_000;

/** The owner a signed address was made for, by request (see recordAsOwner). */
const owners = new WeakMap<FastifyRequest, { userId: string; organizationId: string | null }>();

/**
 * For a route reached through an address signed for a consultation's owner: the event is recorded under the
 * owner's account and organization (the signature proves the owner asked for the address), with the actor kind
 * `signed_link`, so the organization's administrators see the playback in its log.
 */
export function recordAsOwner(request: FastifyRequest, owner: { userId: string; organizationId: string | null }) {
  owners.set(request, owner);
}

/** Registers the hooks; call before the routes and other hooks are registered (the route list is complete and a
 * disconnect is watched from the first hook on). */
export function registerAuditLog(app: App, db: Database, keys: AuditKeys): AuditLog {
  const routes: { method: string; url: string }[] = [];
  const writer = createAuditWriter(db, keys, app.log);
  const auditLog: AuditLog = Object.assign(writer, { routes });
  app.decorate('auditLog', auditLog);

  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  /** Answers of creations, read for the new record's id (only where the table asks for it). */
  const answers = new WeakMap<FastifyRequest, unknown>();
  /** Requests whose answer was sent whole ('finish'). */
  const finished = new WeakSet<FastifyRequest>();
  /** Requests already recorded: the response's close, its onSend and Fastify's onResponse may all come. */
  const recorded = new WeakSet<FastifyRequest>();
  /** Requests whose client left before an answer began, waiting for the server to settle on one. */
  const waiting = new Map<FastifyRequest, { entry: AuditedRoute; timer: NodeJS.Timeout }>();
  const record = (entry: AuditedRoute, request: FastifyRequest, status: number | null) => {
    const wait = waiting.get(request);
    if (wait) {
      clearTimeout(wait.timer);
      waiting.delete(request);
    }
    if (recorded.has(request)) return;
    recorded.add(request);
    writer.record(eventOf(entry, request, answers.get(request), finished.has(request), status));
  };

  app.addHook('onRequest', (request, reply, done) => {
    const entry = auditedRoute(request.method, request.routeOptions.url);
    if (entry) {
      const res = reply.raw;
      // Before Fastify's own listener, which runs onResponse: by then the answer is known to be complete.
      res.prependOnceListener('finish', () => finished.add(request));
      // 'close' comes after 'finish' for a complete answer (onResponse records that one), or alone when the
      // connection went first.
      const closed = () => {
        if (finished.has(request) || recorded.has(request)) return;
        if (res.headersSent) return record(entry, request, reply.statusCode);
        // Nothing sent yet: the server may still be checking the token or carrying the request out. Wait for the
        // answer it settles on (onSend below), so the event has its actor and status; a request Fastify drops
        // without answering is recorded after SETTLE_MS, with what is known by then.
        const timer = setTimeout(() => record(entry, request, null), SETTLE_MS);
        timer.unref();
        waiting.set(request, { entry, timer });
      };
      if (res.destroyed || request.raw.socket?.destroyed) closed();
      else res.once('close', closed);
    }
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const entry = auditedRoute(request.method, request.routeOptions.url);
    if (entry && needsAnswer(entry) && reply.statusCode < 300 && typeof payload === 'string') {
      try {
        answers.set(request, JSON.parse(payload));
      } catch {
        // not JSON: no id to keep
      }
    }
    // The answer of a request whose client already left: it will never be sent, but it says what was done.
    if (entry && waiting.has(request)) record(entry, request, reply.statusCode);
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const entry = auditedRoute(request.method, request.routeOptions.url);
    if (entry) record(entry, request, finished.has(request) || reply.raw.headersSent ? reply.statusCode : null);
    done();
  });

  app.addHook('onClose', async () => {
    for (const [request, { entry }] of [...waiting]) record(entry, request, null);
    await writer.close();
  });
  return auditLog;
}

function needsAnswer(entry: AuditedRoute): boolean {
  return [entry.id, ...Object.values(entry.related ?? {})].some((s) => s && 'created' in s);
}

/**
 * The event of a request. `finished`: its answer was sent whole; `statusCode`: the status answered, being sent or
 * settled on after the client left, or null when none was.
 */
function eventOf(entry: AuditedRoute, request: FastifyRequest, answer: unknown, finished: boolean, statusCode: number | null): AuditEventFields {
  const actor = actorOf(request);
  const read = (source: IdSource) => idFrom(source, request, answer, actor.userId);
  const extraIds: Record<string, string> = {};
  for (const [name, source] of Object.entries(entry.related ?? {})) {
    const value = read(source);
    if (value !== undefined) extraIds[name] = value;
  }
  return {
    occurredAt: new Date(),
    actorUserId: actor.userId,
    actorOrganizationId: actor.organizationId,
    actorKind: actor.signedIn ? 'user' : entry.signedLink ? 'signed_link' : 'anonymous',
    action: entry.action,
    resourceType: entry.resource,
    resourceId: entry.id ? (read(entry.id) ?? null) : null,
    extraIds,
    outcome: !finished ? 'client_disconnected' : statusCode === 207 ? 'partial' : statusCode !== null && statusCode < 400 ? 'success' : 'failure',
    statusCode,
    clientAddress: printable(request.ip, 64),
    userAgent: printable(request.headers['user-agent'], MAX_USER_AGENT),
  };
}

/**
 * Who asked: the user the authentication hooks (http/authenticate.ts) found for a valid token, or the owner a
 * signed address was made for (recordAsOwner).
 */
function actorOf(request: FastifyRequest): { userId: string | null; organizationId: string | null; signedIn: boolean } {
  const user = request.auth?.user;
  const userId = user?.id ?? request.authId?.userId ?? null;
  if (userId) return { userId: userId.toLowerCase(), organizationId: user?.organizationId?.toLowerCase() ?? null, signedIn: true };
  const owner = owners.get(request);
  return { userId: owner?.userId.toLowerCase() ?? null, organizationId: owner?.organizationId?.toLowerCase() ?? null, signedIn: false };
}

function idFrom(source: IdSource, request: FastifyRequest, answer: unknown, actorId: string | null): string | undefined {
  if ('actor' in source) return actorId ?? undefined;
  if ('created' in source) {
    const value = source.created.reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), answer);
    return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
  }
  const values = ('param' in source ? request.params : request.query) as Record<string, unknown> | undefined;
  const raw = values?.['param' in source ? source.param : source.query];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw);
  switch (source.kind) {
    case 'uuid':
      return UUID.test(text) ? text.toLowerCase() : INVALID;
    case 'integer':
      return INTEGER.test(text) ? String(Number(text)) : INVALID;
    case 'document':
      return DOCUMENT_KEYS.has(text) ? text : INVALID;
    case 'engine':
      return text === 'speech' || text === 'text' ? text : INVALID;
  }
}

/**
 * An event a route records itself, for what it did besides what its route stands for (a launch from the record
 * system that opened a consultation): the signed-in actor it names, the request's address and agent.
 */
export function eventFor(
  request: FastifyRequest,
  event: Pick<AuditEventFields, 'actorUserId' | 'actorOrganizationId' | 'action' | 'resourceType' | 'resourceId'> & { statusCode: number },
): AuditEventFields {
  return {
    occurredAt: new Date(),
    actorKind: 'user',
    extraIds: {},
    outcome: 'success',
    clientAddress: printable(request.ip, 64),
    userAgent: printable(request.headers['user-agent'], MAX_USER_AGENT),
    ...event,
  };
}

/** Without control characters (PostgreSQL refuses NUL) and cut to a length. */
function printable(value: string | string[] | undefined, max: number): string | null {
  const text = [value].flat()[0];
  if (!text) return null;
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, max) || null;
}
