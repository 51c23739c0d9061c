import type { z } from 'zod';
import type { Language, signupBody } from '../../../../contract/account.js';
import type { LoginSource } from '../../auth/login-limiter.js';
import { createOneTimeToken } from '../../auth/one-time-tokens.js';
import { hashPassword } from '../../auth/passwords.js';
import { findUserByEmail, type UserRow } from '../../auth/users.js';
import { isUniqueViolation } from '../../db/errors.js';
import { users } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError } from '../../errors/domain-error.js';
import { mailTemplates } from '../../mail/templates.js';
import { grantCredits } from '../credits/service.js';
import { findUsableInvitation, invitationPath, markInvitation } from '../organization_invitations/service.js';
import { RESET_TTL_MINUTES } from '../reset_password/routes.js';

export const CONFIRM_EMAIL_TTL_SECONDS = 3 * 24 * 3600;

/**
 * `signed_in`: an invitation (which reached this very address) created the account, so it starts at once.
 * `check_mail`: everything else, whether or not the address already had an account; `mail` sends what the
 * address's owner needs, after the answer, so a slow mail server tells nobody which case it was.
 */
export type SignupOutcome = { kind: 'signed_in'; user: UserRow } | { kind: 'check_mail'; mail: () => Promise<void> };

export async function signUp(ctx: AppContext, body: z.infer<typeof signupBody>, source: LoginSource): Promise<SignupOutcome> {
  const { name, email, password, language, phone_number } = body.user;
  const invitation = body.invitation_token ? await findUsableInvitation(ctx.db, body.invitation_token) : undefined;
  if (invitation && invitation.email !== email) {
    throw new DomainError(400, 'invitation_email_mismatch', 'This invitation was sent to another e-mail address', {
      'user.email': 'invitation_email_mismatch',
    });
  }
  // Hashed before the address is looked up and whatever it finds: the slowest step takes as long either way.
  const passwordHash = await hashPassword(password);
  const signInPath = body.invitation_token && invitation ? `/login?ref=${invitationPath(body.invitation_token)}` : '/login';
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) return { kind: 'check_mail', mail: () => mailExistingOwner(ctx, existing, signInPath) };

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
    // Two sign-ups racing for one address: the unique index decides, and the loser is answered as any existing address.
    const winner = isUniqueViolation(err) ? await findUserByEmail(ctx.db, email) : undefined;
    if (winner) return { kind: 'check_mail', mail: () => mailExistingOwner(ctx, winner, signInPath) };
    throw err;
  }

  // The device and address that created the account with its password count as the clinician's own.
  if (invitation) {
    await ctx.loginLimiter.rememberSource(user.id, source);
    return { kind: 'signed_in', user };
  }
  // A clinician on their own gets the same starting grant as a new organization.
  if (ctx.config.initialCredits) await grantCredits(ctx.db, { ownerUserId: user.id }, ctx.config.initialCredits, undefined, undefined, 'initial_grant');
  const created = user;
  return {
    kind: 'check_mail',
    mail: async () => {
      await ctx.loginLimiter.rememberSource(created.id, source);
      const { token } = await createOneTimeToken(ctx.db, created.id, 'confirm_email', CONFIRM_EMAIL_TTL_SECONDS);
      const link = `${ctx.config.publicUrl}/confirm_email/${token}`;
      await ctx.mailer.send({ to: created.email, link, ...mailTemplates.confirmEmail[language](link) });
    },
  };
}

/**
 * The address already has an account: nothing of it changes, and only its owner hears of the attempt, in the
 * account's language. A confirmed account's owner is pointed to signing in or a reset. An unconfirmed one gets a
 * link to choose the password instead of its confirmation again: whoever started that account may not be the
 * address's owner, and confirming it would hand the owner an account someone else holds the password to.
 */
export async function mailExistingOwner(ctx: AppContext, owner: UserRow, signInPath: string): Promise<void> {
  // Anyone can cause this mail, as often as the route lets them: its owner gets one per window.
  if (!ctx.mailCap.allow('existing-account', owner.email)) return;
  const language = owner.language as Language;
  if (owner.emailConfirmedAt) {
    const signIn = `${ctx.config.publicUrl}${signInPath}`;
    const mail = mailTemplates.signupAccountExists[language](owner.name, signIn, `${ctx.config.publicUrl}/reset`);
    await ctx.mailer.send({ to: owner.email, link: signIn, ...mail });
    return;
  }
  const { token } = await createOneTimeToken(ctx.db, owner.id, 'reset_password', RESET_TTL_MINUTES * 60);
  const link = `${ctx.config.publicUrl}/reset_password/${token}`;
  await ctx.mailer.send({ to: owner.email, link, ...mailTemplates.signupFinish[language](link, RESET_TTL_MINUTES) });
}
