import { launchLinkBody, launchLinkEnvelope, userEnvelope } from '../../../../contract/account.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { consumeOneTimeToken } from '../../auth/one-time-tokens.js';
import { findUserById } from '../../auth/users.js';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { errorResponses, noContent } from '../../http/responses.js';
import { describeErrorSafely } from '../../http/safe-errors.js';
import { requestLanguage } from '../../http/language.js';
import { mailTemplates } from '../../mail/templates.js';
import type { Language } from '../../../../contract/account.js';
import { eventFor } from '../../audit/audit-hook.js';
import { startSession } from '../../http/session-response.js';
import { loginSourceOf } from '../../auth/login-limiter.js';
import { beginLaunch, completeLaunch, findLinkRequest, LaunchError, LinkError, linkAccount, type LaunchFailure, type Opened } from './service.js';

const LINK_PATH = '/v1/launch_link';
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
  const https = ctx.config.publicUrl.startsWith('https:');
  // Over https the cookies are __Host- cookies (Secure, Path=/, this host only): neither a sibling subdomain nor a
  // plain-http answer on the network can plant one (say, an attacker's own link request in a clinician's browser).
  const NONCE_COOKIE = https ? '__Host-cn_launch' : 'cn_launch';
  const HANDOVER_COOKIE = https ? '__Host-cn_launch_session' : 'cn_launch_session';
  const LINK_COOKIE = https ? '__Host-cn_launch_link' : 'cn_launch_link';
  // Lax: sent when the record system's authorization server sends the browser back (a top-level GET).
  const setCookie = (name: string, value: string, path: string, maxAge: number) =>
    https
      ? `${name}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax; Secure`
      : `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax`;
  const failed = (reason: LaunchFailure) => `${ctx.config.publicUrl}/launch_failed?reason=${reason}`;
  const reasonOf = (err: unknown): LaunchFailure => {
    if (err instanceof LaunchError) {
      // Which check refused the record system's answer (its ID token above all), for whoever sets it up; never the token.
      if (err.detail) app.log.warn({ reason: err.reason, detail: err.detail }, 'a launch from a record system was refused');
      return err.reason;
    }
    app.log.warn({ err: describeErrorSafely(err) }, 'a launch from a record system failed');
    return 'record_system_unreachable';
  };
  const limited = { rateLimit: { max: 30, timeWindow: 60_000 } };
  // Every answer is a redirect (to the record system, to the app, or to the page that says why it failed); only the
  // rate limit answers otherwise.
  const redirects = {
    302: noContent('Redirect: to the record system, to the app, or to /launch_failed?reason=… (the Location header)'),
    ...errorResponses(429),
  };

  // Each organization registers its own launch address: a launch reaches only the organization it names.
  app.get('/launch', { config: limited, schema: { response: redirects } }, async (_request, reply) => reply.redirect(failed('unknown_record_system')));
  app.get('/launch/:organizationId', { config: limited, schema: { response: redirects } }, async (request, reply) => {
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

  app.get('/launch/callback', { config: limited, schema: { response: redirects } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const code = one(query.code, 4000);
    const state = one(query.state, 200);
    const nonce = cookie(request.headers.cookie, NONCE_COOKIE);
    reply.header('set-cookie', setCookie(NONCE_COOKIE, '', '/launch', 0));
    // The record system's authorization server said no (the clinician declined, or it refused the app).
    if (query.error !== undefined || !code || !state) return reply.redirect(failed('refused'));
    if (!nonce) return reply.redirect(failed('expired'));
    try {
      const done = await completeLaunch(ctx, { code, state, nonce, language: requestLanguage(request) });
      if (done.kind === 'link_required') {
        // An account that existed before: its password, on the app's page, makes the link (POST /v1/launch_link).
        return reply
          .header('set-cookie', [setCookie(NONCE_COOKIE, '', '/launch', 0), setCookie(LINK_COOKIE, done.linkToken, LINK_PATH, 600)])
          .redirect(`${ctx.config.publicUrl}/launch_link`);
      }
      recordOpened(request, done, 302);
      // The sign-in travels in a cookie only this browser holds, spent once by POST /v1/launch_session.
      return reply
        .header('set-cookie', [setCookie(NONCE_COOKIE, '', '/launch', 0), setCookie(HANDOVER_COOKIE, done.token, '/v1/launch_session', 120)])
        .redirect(`${ctx.config.publicUrl}/launched`);
    } catch (err) {
      return reply.redirect(failed(reasonOf(err)));
    }
  });

  /** The consultation a launch opened is in the audit log as the clinician's (these routes are no patient-data API calls). */
  const recordOpened = (request: FastifyRequest, opened: Opened, statusCode: number) =>
    app.auditLog.record(
      eventFor(request, {
        actorUserId: opened.userId,
        actorOrganizationId: opened.organizationId,
        action: opened.created ? 'create' : 'read',
        resourceType: 'consultation_session',
        resourceId: opened.consultationId,
        statusCode,
      }),
    );

  // The cookie's token is 32 random bytes in base64url: anything else is not looked up at all.
  const linkTokenOf = (request: FastifyRequest): string | undefined => {
    const token = cookie(request.headers.cookie, LINK_COOKIE);
    return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
  };
  const expiredLink = () => new DomainError(401, 'invalid_or_expired_token', 'This link is invalid or has expired');

  // The page that asks for the password shows whose account the launch named (the record system wrote it).
  app.get(LINK_PATH, { config: limited, schema: { response: { 200: launchLinkEnvelope, 401: apiErrorSchema } } }, async (request) => {
    const token = linkTokenOf(request);
    const found = token ? await findLinkRequest(ctx, token) : undefined;
    if (!found) throw expiredLink();
    return {
      launch_link: {
        email: found.email,
        record_system: found.request.iss,
        record_system_user: found.request.subjectName ?? found.request.subject,
        again: found.admin,
      },
    };
  });

  app.post(
    LINK_PATH,
    {
      config: { rateLimit: { max: ctx.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
      schema: { body: launchLinkBody, response: { 200: userEnvelope, 400: apiErrorSchema, 401: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema } },
    },
    async (request, reply) => {
      const token = linkTokenOf(request);
      if (!token) throw expiredLink();
      let opened: Opened & { linked: boolean; iss: string };
      try {
        opened = await linkAccount(ctx, { token, password: request.body.password, source: loginSourceOf(request) });
      } catch (err) {
        if (!(err instanceof LinkError)) throw err;
        if (err.reason === 'expired') {
          reply.header('set-cookie', setCookie(LINK_COOKIE, '', LINK_PATH, 0));
          throw expiredLink();
        }
        if (err.reason === 'wrong_password') {
          // A wrong password for an account is in its organization's access log, as the attempt on that account.
          const who = err.user!;
          app.auditLog.record({
            ...eventFor(request, {
              actorUserId: null,
              actorOrganizationId: who.organizationId,
              action: 'update',
              resourceType: 'account',
              resourceId: who.id,
              statusCode: 401,
            }),
            actorKind: 'anonymous',
            outcome: 'failure',
          });
          throw new DomainError(401, 'invalid_credentials', 'Invalid credentials');
        }
        if (err.reason === 'paused') {
          reply.header('retry-after', String(err.retryAfterSeconds));
          throw new DomainError(
            429,
            'too_many_requests',
            `Too many failed sign-ins to this account; try again in ${Math.ceil(err.retryAfterSeconds / 60)} min`,
          );
        }
        if (err.reason === 'recording_elsewhere')
          throw new DomainError(409, 'recording_elsewhere', 'A consultation is being recorded on this account; pause or finish it first');
        throw new DomainError(409, 'conflict', 'This record system user is already linked to another account');
      }
      const user = await findUserById(ctx.db, opened.userId);
      if (!user) throw expiredLink();
      if (opened.linked) {
        // The link is a new way into the account: in the access log, and told to the account's owner at once.
        app.auditLog.record(
          eventFor(request, {
            actorUserId: user.id,
            actorOrganizationId: opened.organizationId,
            action: 'update',
            resourceType: 'account',
            resourceId: user.id,
            statusCode: 200,
          }),
        );
        const mail = mailTemplates.recordSystemLinked[user.language as Language](user.name, new URL(opened.iss).host, `${ctx.config.publicUrl}/reset`);
        await ctx.mailer
          .send({ to: user.email, ...mail })
          .catch((e: unknown) => app.log.warn({ err: describeErrorSafely(e) }, 'the mail about a record system link was not sent'));
      }
      reply.header('set-cookie', setCookie(LINK_COOKIE, '', LINK_PATH, 0));
      recordOpened(request, opened, 200);
      const { d_user } = await startSession(ctx, reply, user);
      return { d_user };
    },
  );

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
