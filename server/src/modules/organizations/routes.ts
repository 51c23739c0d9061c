import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { CONSENT_RULES, type ConsentRule } from '../../../../contract/consultations.js';
import { organizations } from '../../db/schema.js';
import { organizationsEnvelope } from '../../../../contract/account.js';
import { MAX_INVITES } from '../../../../contract/constants.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { errorResponses, noContent } from '../../http/responses.js';
import { historyItemSchema } from '../consultation_sessions/history.js';
import { listHistory } from '../consultation_sessions/history.js';
import { pageCursor, pageQuery } from '../consultation_sessions/paging.js';
import { findEndpoint } from './fhir_endpoint/service.js';
import {
  changeRole,
  inviteMembers,
  leaveOrganization,
  listInvitations,
  listMembers,
  listUserOrganizations,
  removeMember,
  requireMember,
  requireMembership,
  resendInvitation,
  revokeInvitation,
} from './service.js';

const orgParams = z.object({ organizationId: z.uuid({ error: 'invalid_id' }) });
const memberParams = orgParams.extend({ userId: z.uuid({ error: 'invalid_id' }) });
const invitationParams = orgParams.extend({ invitationId: z.uuid({ error: 'invalid_id' }) });
const role = z.enum(['admin', 'member']);

const memberSchema = z.object({ id: z.uuid(), name: z.string(), email: z.string(), role, created_at: z.iso.datetime() });
const invitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role,
  status: z.enum(['pending', 'accepted', 'rejected', 'expired']),
  invited_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  responded_at: z.iso.datetime().nullable(),
});
const invitationsSchema = z.array(invitationSchema);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The organization a clinician belongs to (ARCHITECTURE.md: members, roles, invitations, leave, member history).
 * Admin-only calls are checked here against the database; a member of another organization sees a 404.
 */
export function organizationsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/organizations/:organizationId';

  app.get('/v1/organizations', { onRequest: preHandler, schema: { response: { 200: organizationsEnvelope, ...errorResponses(401) } } }, async (request) => ({
    organizations: await listUserOrganizations(ctx.db, currentUser(request).id),
  }));

  app.get(
    base,
    {
      onRequest: preHandler,
      schema: {
        params: orgParams,
        response: {
          200: z.object({
            organization: z.object({
              id: z.uuid(),
              name: z.string(),
              role,
              members: z.array(memberSchema),
              record_system: z.boolean(),
              recording_consent: z.enum(CONSENT_RULES).describe("How the patient's consent to recording is asked before a consultation's first part"),
            }),
          }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'member');
      return {
        organization: {
          id: m.organizationId,
          name: m.organizationName,
          role: m.role,
          members: await listMembers(ctx.db, m.organizationId),
          // Whether "Send to record" has somewhere to send: members see that there is one, never its settings.
          record_system: Boolean(await findEndpoint(ctx.db, m.organizationId)),
          recording_consent: await recordingConsentOf(ctx, m.organizationId),
        },
      };
    },
  );

  /** Its admins choose how the patient's consent to recording is asked; consultations begun from then on follow it. */
  app.put(
    `${base}/recording_consent`,
    {
      onRequest: preHandler,
      schema: {
        params: orgParams,
        body: z.object({ recording_consent: z.enum(CONSENT_RULES, { error: 'invalid_consent_rule' }) }).strict(),
        response: { 200: z.object({ recording_consent: z.enum(CONSENT_RULES) }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      await ctx.db.update(organizations).set({ recordingConsent: request.body.recording_consent }).where(eq(organizations.id, m.organizationId));
      return { recording_consent: request.body.recording_consent };
    },
  );

  app.get(
    `${base}/invitations`,
    {
      onRequest: preHandler,
      schema: { params: orgParams, response: { 200: z.object({ invitations: invitationsSchema }), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      return { invitations: await listInvitations(ctx.db, m.organizationId) };
    },
  );

  app.post(
    `${base}/invitations`,
    {
      onRequest: preHandler,
      schema: {
        params: orgParams,
        body: z.object({ emails: z.array(z.string().trim().max(254)).min(1).max(MAX_INVITES), role: role.default('member') }).strict(),
        response: {
          201: z.object({
            results: z.array(z.object({ email: z.string(), result: z.enum(['invited', 'already_member', 'already_invited']) })),
            invitations: invitationsSchema,
          }),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const m = await requireMembership(ctx.db, user, request.params.organizationId, 'admin');
      // Every address is checked before any mail leaves: one bad address and nothing is sent.
      const invalid = request.body.emails.map((e, i) => [i, e] as const).filter(([, e]) => !EMAIL.test(e));
      if (invalid.length) {
        throw new DomainError(400, 'invalid_request', 'Invalid email', Object.fromEntries(invalid.map(([i]) => [`emails.${i}`, 'invalid_email'])));
      }
      const results = await inviteMembers(ctx, user, m, request.body.emails, request.body.role);
      return reply.status(201).send({ results, invitations: await listInvitations(ctx.db, m.organizationId) });
    },
  );

  app.post(
    `${base}/invitations/:invitationId/resend`,
    {
      onRequest: preHandler,
      schema: { params: invitationParams, response: { 200: z.object({ invitation: invitationSchema }), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (request) => {
      const user = currentUser(request);
      const m = await requireMembership(ctx.db, user, request.params.organizationId, 'admin');
      return { invitation: await resendInvitation(ctx, user, m, request.params.invitationId) };
    },
  );

  app.delete(
    `${base}/invitations/:invitationId`,
    { onRequest: preHandler, schema: { params: invitationParams, response: { 204: noContent('Revoked'), ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request, reply) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      await revokeInvitation(ctx.db, m.organizationId, request.params.invitationId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    `${base}/members/:userId`,
    {
      onRequest: preHandler,
      schema: {
        params: memberParams,
        body: z.object({ role }).strict(),
        response: { 200: z.object({ member: memberSchema }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      return { member: await changeRole(ctx.db, m.organizationId, request.params.userId, request.body.role) };
    },
  );

  app.delete(
    `${base}/members/:userId`,
    { onRequest: preHandler, schema: { params: memberParams, response: { 204: noContent('Removed'), ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request, reply) => {
      const user = currentUser(request);
      const m = await requireMembership(ctx.db, user, request.params.organizationId, 'admin');
      if (request.params.userId === user.id) throw new DomainError(400, 'invalid_request', 'To leave the organization, use leave');
      await removeMember(ctx.db, m.organizationId, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/leave`,
    { onRequest: preHandler, schema: { params: orgParams, response: { 204: noContent('Left the organization'), ...errorResponses(400, 401, 404, 409) } } },
    async (request, reply) => {
      const user = currentUser(request);
      const m = await requireMembership(ctx.db, user, request.params.organizationId, 'member');
      await leaveOrganization(ctx.db, user.id, m.organizationId);
      return reply.status(204).send(null);
    },
  );

  /** Spec §6: admins see their members' history; a member sees only their own. */
  // A page at a time, as the clinician's own history: ?before= the last one's finished_at and &before_id= its id.
  app.get(
    `${base}/members/:userId/history`,
    {
      onRequest: preHandler,
      schema: {
        params: memberParams,
        querystring: pageQuery,
        response: {
          200: z.object({ member: z.object({ id: z.uuid(), name: z.string() }), consultation_sessions: z.array(historyItemSchema) }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const m = await requireMembership(ctx.db, user, request.params.organizationId, request.params.userId === user.id ? 'member' : 'admin');
      const member = await requireMember(ctx.db, m.organizationId, request.params.userId);
      const consultations = await listHistory(ctx.db, member.id, { withContent: member.id === user.id, cursor: pageCursor(request.query) });
      return { member: { id: member.id, name: member.name }, consultation_sessions: consultations };
    },
  );
}

async function recordingConsentOf(ctx: AppContext, organizationId: string): Promise<ConsentRule> {
  const [row] = await ctx.db.select({ rule: organizations.recordingConsent }).from(organizations).where(eq(organizations.id, organizationId));
  return (row?.rule as ConsentRule | undefined) ?? 'off';
}
