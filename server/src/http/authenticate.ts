import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../auth/users.js';
import { unauthorized } from '../errors/domain-error.js';
import type { AppContext } from '../app-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: { user: UserRow; sessionId: string };
    authId?: { userId: string; sessionId: string };
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * The hooks that demand a bearer token, so the API's description (http/openapi.ts) can tell which operations are
 * protected without each route saying it twice.
 */
const authHooks = new WeakSet<object>();
export const requiresBearerToken = (hook: unknown): boolean => (Array.isArray(hook) ? hook : [hook]).some((h) => typeof h === 'function' && authHooks.has(h));
const marked = <T extends object>(hook: T): T => (authHooks.add(hook), hook);

/** onRequest hook of every protected route (before the body is parsed and validated, so strangers learn nothing of its fields): a valid, unrevoked token or 401. */
export function requireUser(ctx: AppContext) {
  return marked(async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    const found = token ? await ctx.sessions.verify(token) : undefined;
    if (!found) throw unauthorized();
    request.auth = found;
  });
}

/**
 * For hot polling paths that need only who is asking, not their profile: a token checked before is trusted from
 * memory until a revocation drops it, about 30 s at most (auth/session-tokens.ts, verifyCached).
 */
export function requireUserId(ctx: AppContext) {
  return marked(async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    const found = token ? await ctx.sessions.verifyCached(token) : undefined;
    if (!found) throw unauthorized();
    request.authId = found;
  });
}

export function currentUserId(request: FastifyRequest): string {
  const id = request.authId?.userId ?? request.auth?.user.id;
  if (!id) throw unauthorized();
  return id;
}

/** The session of a request that passed requireUser. */
export function currentAuth(request: FastifyRequest): { user: UserRow; sessionId: string } {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** The signed-in user of a request that passed requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.auth) throw unauthorized();
  return request.auth.user;
}
