import { and, eq } from 'drizzle-orm';
import { tokenParams } from '../../../../contract/account.js';
import type { UserRow } from '../../auth/users.js';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { z } from 'zod';
import { errorResponses } from '../../http/responses.js';
import { assertAnotherAdmin } from '../organizations/service.js';
import { describeInvitation, findUsableInvitation, markInvitation } from './service.js';

/**
 * Spec §2 /organization/invitations/{token}: a signed-in clinician with the invited address accepts or rejects;
 * a newcomer accepts by signing up with the token. The link alone only shows the invitation: a link forwarded
 * or leaked from a mailbox cannot answer for the invited person. Answering is possible once.
 */
const role = z.enum(['admin', 'member']);
const invitationEnvelope = z.object({
  invitation: z.object({
    organization_name: z.string(),
    email: z.string(),
    role,
    status: z.string().describe('pending, accepted, rejected or expired'),
    expires_at: z.iso.datetime(),
  }),
});

export function organizationInvitationsRoutes(app: App, ctx: AppContext) {
  const base = '/v1/organization_invitations/:token';

  app.get(base, { schema: { params: tokenParams, response: { 200: invitationEnvelope, ...errorResponses(400, 404, 410) } } }, async (request) => ({
    invitation: await describeInvitation(ctx.db, request.params.token),
  }));

  app.post(
    `${base}/accept`,
    {
      onRequest: requireUser(ctx),
      schema: {
        params: tokenParams,
        response: {
          200: z.object({ organization: z.object({ id: z.uuid(), name: z.string(), role: z.string().describe('admin or member') }) }),
          ...errorResponses(400, 401, 403, 404, 409, 410),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const invitation = await findUsableInvitation(ctx.db, request.params.token);
      assertInvitedUser(invitation, user);
      await ctx.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        // Moving to another organization must not leave the current one without an admin.
        if (user.organizationId && user.organizationId !== invitation.organizationId) await assertAnotherAdmin(db, user.organizationId, user.id);
        await markInvitation(db, invitation.id, 'accepted');
        await tx
          .update(users)
          .set({ organizationId: invitation.organizationId, organizationRole: invitation.role, updatedAt: new Date() })
          .where(and(eq(users.id, user.id)));
      });
      return { organization: { id: invitation.organizationId, name: invitation.organizationName, role: invitation.role } };
    },
  );

  app.post(
    `${base}/reject`,
    { onRequest: requireUser(ctx), schema: { params: tokenParams, response: { 200: invitationEnvelope, ...errorResponses(400, 401, 403, 404, 409, 410) } } },
    async (request) => {
      const invitation = await findUsableInvitation(ctx.db, request.params.token);
      assertInvitedUser(invitation, currentUser(request));
      await markInvitation(ctx.db, invitation.id, 'rejected');
      return { invitation: await describeInvitation(ctx.db, request.params.token) };
    },
  );
}

/** Only the person the invitation was sent to answers it, accepting or declining alike. */
function assertInvitedUser(invitation: { email: string }, user: UserRow): void {
  if (invitation.email !== user.email.toLowerCase()) {
    throw new DomainError(403, 'invitation_email_mismatch', 'This invitation was sent to another e-mail address');
  }
}
