import { userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { consumeOneTimeToken } from '../../auth/one-time-tokens.js';
import { findUserById } from '../../auth/users.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { describeErrorSafely } from '../../http/safe-errors.js';
import { requestLanguage } from '../../http/language.js';
import { eventFor } from '../../audit/audit-hook.js';
import { startSession } from '../../http/session-response.js';
import { beginLaunch, completeLaunch, LaunchError, type LaunchFailure } from './service.js';

const NONCE_COOKIE = 'cn_launch';
const HANDOVER_COOKIE = 'cn_launch_session';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One cookie's value from the request's Cookie header. */
function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** A query value only when given once, as a string of sensible length (anything else is as if missing). */
const one = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : undefined);

/**
 * The record system's entry points (browser navigations, not API calls): answered with redirects, never JSON.
 * A launch that cannot go on lands on the app's page that says why (/launch_failed?reason=…).
 */
export function launchRoutes(app: App, ctx: AppContext) {
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  // Lax: sent when the record system's authorization server sends the browser back (a top-level GET).
  const setCookie = (name: string, value: string, path: string, maxAge: number) => `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  const failed = (reason: LaunchFailure) => `${ctx.config.publicUrl}/launch_failed?reason=${reason}`;
  const reasonOf = (err: unknown): LaunchFailure => {
    if (err instanceof LaunchError) return err.reason;
    app.log.warn({ err: describeErrorSafely(err) }, 'a launch from a record system failed');
    return 'record_system_unreachable';
  };
  const limited = { rateLimit: { max: 30, timeWindow: 60_000 } };

  // Each organization registers its own launch address: a launch reaches only the organization it names.
  app.get('/launch', { config: limited }, async (_request, reply) => reply.redirect(failed('unknown_record_system')));
  app.get('/launch/:organizationId', { config: limited }, async (request, reply) => {
    const { organizationId } = request.params as { organizationId: string };
    const query = request.query as Record<string, unknown>;
    const iss = one(query.iss, 2000);
    const launch = one(query.launch, 2000);
    if (organizationId === 'callback' || !UUID.test(organizationId) || !iss || !launch) return reply.redirect(failed('unknown_record_system'));
    try {
      const { location, nonce } = await beginLaunch(ctx, { organizationId, iss, launch });
      return reply.header('set-cookie', setCookie(NONCE_COOKIE, nonce, '/launch', 600)).redirect(location);
    } catch (err) {
      return reply.redirect(failed(reasonOf(err)));
    }
  });

  app.get('/launch/callback', { config: limited }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const code = one(query.code, 4000);
    const state = one(query.state, 200);
    const nonce = cookie(request.headers.cookie, NONCE_COOKIE);
    reply.header('set-cookie', setCookie(NONCE_COOKIE, '', '/launch', 0));
    // The record system's authorization server said no (the clinician declined, or it refused the app).
    if (query.error !== undefined || !code || !state) return reply.redirect(failed('refused'));
    if (!nonce) return reply.redirect(failed('expired'));
    try {
      const { token, consultationId, created, userId, organizationId } = await completeLaunch(ctx, { code, state, nonce, language: requestLanguage(request) });
      // The consultation the launch opened is in the audit log as the clinician's (this route is no API call).
      app.auditLog.record(
        eventFor(request, { actorUserId: userId, actorOrganizationId: organizationId, action: created ? 'create' : 'read', resourceType: 'consultation_session', resourceId: consultationId, statusCode: 302 }),
      );
      // The sign-in travels in a cookie only this browser holds, spent once by POST /v1/launch_session.
      return reply.header('set-cookie', [setCookie(NONCE_COOKIE, '', '/launch', 0), setCookie(HANDOVER_COOKIE, token, '/v1/launch_session', 120)]).redirect(`${ctx.config.publicUrl}/launched`);
    } catch (err) {
      return reply.redirect(failed(reasonOf(err)));
    }
  });

  app.post(
    '/v1/launch_session',
    { config: { rateLimit: { max: 20, timeWindow: 60_000 } }, schema: { response: { 200: userEnvelope, 401: apiErrorSchema } } },
    async (request, reply) => {
      const token = cookie(request.headers.cookie, HANDOVER_COOKIE);
      reply.header('set-cookie', setCookie(HANDOVER_COOKIE, '', '/v1/launch_session', 0));
      const userId = token && /^[0-9a-f]{64}$/.test(token) ? await consumeOneTimeToken(ctx.db, token, 'smart_launch') : undefined;
      const user = userId ? await findUserById(ctx.db, userId) : undefined;
      if (!user) throw new DomainError(401, 'invalid_or_expired_token', 'This link is invalid or has expired');
      const { d_user } = await startSession(ctx, reply, user);
      return { d_user };
    },
  );
}
