import type { z } from 'zod';
import type { signupBody } from '../../../../contract/account.js';
import { createOneTimeToken } from '../../auth/one-time-tokens.js';
import { hashPassword } from '../../auth/passwords.js';
import { findUserByEmail, type UserRow } from '../../auth/users.js';
import { isUniqueViolation } from '../../db/errors.js';
import { users } from '../../db/schema.js';
import type { AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { mailTemplates } from '../../mail/templates.js';
import { grantCredits } from '../credits/service.js';
import { findUsableInvitation, markInvitation } from '../organization_invitations/service.js';

export const CONFIRM_EMAIL_TTL_SECONDS = 3 * 24 * 3600;

const emailTaken = () =>
  new DomainError(409, 'email_taken', 'An account with this e-mail already exists', { 'user.email': 'email_taken' });

export async function signUp(ctx: AppContext, body: z.infer<typeof signupBody>): Promise<UserRow> {
  const { name, email, password, language, phone_number } = body.user;
  const invitation = body.invitation_token ? await findUsableInvitation(ctx.db, body.invitation_token) : undefined;
  if (invitation && invitation.email !== email) {
    throw new DomainError(400, 'invitation_email_mismatch', 'This invitation was sent to another e-mail address', {
      'user.email': 'invitation_email_mismatch',
    });
  }
  if (await findUserByEmail(ctx.db, email)) throw emailTaken();

  const passwordHash = await hashPassword(password);
  let user: UserRow;
  try {
    user = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          name,
          email,
          passwordHash,
          language,
          phoneNumber: phone_number ?? null,
          organizationId: invitation?.organizationId ?? null,
          organizationRole: invitation?.role ?? null,
          // The invitation link reached this very address, which is what a confirmation would prove.
          emailConfirmedAt: invitation ? new Date() : null,
        })
        .returning();
      if (invitation) await markInvitation(tx as unknown as AppContext['db'], invitation.id, 'accepted');
      return created!;
    });
  } catch (err) {
    // Two signups racing for one address: the unique index decides, the loser gets the same answer as above.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }

  if (!invitation) {
    // A clinician on their own gets the same starting grant as a new organization.
    if (ctx.config.initialCredits) await grantCredits(ctx.db, { ownerUserId: user.id }, ctx.config.initialCredits, 'initial grant');
    const { token } = await createOneTimeToken(ctx.db, user.id, 'confirm_email', CONFIRM_EMAIL_TTL_SECONDS);
    const link = `${ctx.config.publicUrl}/confirm_email/${token}`;
    await ctx.mailer.send({ to: user.email, link, ...mailTemplates.confirmEmail[language](name, link) });
  }
  return user;
}
