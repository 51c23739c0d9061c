import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../auth/users.js';
import { unauthorized } from './errors.js';
import type { AppContext } from './context.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: { user: UserRow; sessionId: string };
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** preHandler for every protected route: a valid, unrevoked token or 401. */
export function requireUser(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    const found = token ? await ctx.sessions.verify(token) : undefined;
    if (!found) throw unauthorized();
    request.auth = found;
  };
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
