import type { FastifyReply } from 'fastify';
import type { DUser } from '../../../contract/account.js';
import { toDUser, type UserRow } from '../auth/users.js';
import type { AppContext } from '../app-context.js';

/** Starts a session: the token goes in the Authorization response header (exposed by CORS), the user in the body. */
export async function startSession(ctx: AppContext, reply: FastifyReply, user: UserRow): Promise<{ d_user: DUser; token: string }> {
  const token = await ctx.sessions.issue(user.id);
  reply.header('authorization', `Bearer ${token}`);
  return { d_user: toDUser(user), token };
}
