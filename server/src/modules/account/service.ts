import { sessionBlobPrefix } from '../../jobs/retention.js';
import { customDocumentBlobPrefix } from '../custom_document_requests/routes.js';
import { researchBlobPrefix } from '../research_spaces/service.js';
import { and, count, eq, isNull, ne } from 'drizzle-orm';
import type { AccountUpdate } from '../../../../contract/account.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { revokeOutstandingTokens } from '../../auth/one-time-tokens.js';
import type { UserRow } from '../../auth/users.js';
import { consultationSessions, customDocumentRequests, medicalSpecialities, recordSystemIdentities, researchSpaces, users } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError } from '../../errors/domain-error.js';

const fieldError = (field: string, code: string, message: string) => new DomainError(400, 'invalid_request', message, { [`user.${field}`]: code });

export async function updateAccount(ctx: AppContext, user: UserRow, sessionId: string, input: AccountUpdate): Promise<UserRow> {
  if (input.email !== undefined && input.email.trim().toLowerCase() !== user.email) {
    throw fieldError('email', 'email_not_editable', 'The e-mail address cannot be changed');
  }
  if (input.medical_speciality_id) {
    const [found] = await ctx.db
      .select({ id: medicalSpecialities.id })
      .from(medicalSpecialities)
      .where(eq(medicalSpecialities.id, input.medical_speciality_id));
    if (!found) throw fieldError('medical_speciality_id', 'unknown_speciality', 'Unknown medical speciality');
  }
  let passwordHash: string | undefined;
  if (input.password !== undefined) {
    if (!input.current_password) throw fieldError('current_password', 'required', 'The current password is required');
    if (!(await verifyPassword(user.passwordHash, input.current_password))) {
      throw new DomainError(400, 'invalid_current_password', 'The current password is not correct', {
        'user.current_password': 'invalid_current_password',
      });
    }
    passwordHash = await hashPassword(input.password);
  }

  const [updated] = await ctx.db
    .update(users)
    .set({
      name: input.name,
      phoneNumber: input.phone_number,
      language: input.language,
      medicalSpecialityId: input.medical_speciality_id,
      optInNewsletter: input.opt_in_newsletter,
      optInProductContact: input.opt_in_product_contact,
      saveAudios: input.save_audios,
      saveTextData: input.save_text_data,
      v2Home: input.v2_home,
      consultationMode: input.consultation_mode,
      ...(passwordHash ? { passwordHash, forcePasswordChange: false } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id))
    .returning();
  // A new password signs every other device out (this one keeps working), and a reset link mailed before it
  // no longer works: whoever holds the old mailbox must not get the account back with it. Nor does a QR code or
  // confirmation link not yet used (revokeAllFor retires them), since each would open a session.
  if (passwordHash) {
    await ctx.sessions.revokeAllFor(user.id, sessionId);
    await revokeOutstandingTokens(ctx.db, user.id, 'reset_password');
    // So do links to record systems made with the old password: a launch asks for the new one.
    await ctx.db.delete(recordSystemIdentities).where(eq(recordSystemIdentities.userId, user.id));
  }
  return updated!;
}

/** Deletes the account and, by cascade, its sessions and tokens. The only admin of a team must hand over first. */
export async function deleteAccount(ctx: AppContext, user: UserRow): Promise<void> {
  if (user.organizationId && user.organizationRole === 'admin') {
    const [admins] = await ctx.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.organizationId, user.organizationId), eq(users.organizationRole, 'admin'), ne(users.id, user.id)));
    const [others] = await ctx.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.organizationId, user.organizationId), ne(users.id, user.id)));
    if ((admins?.n ?? 0) === 0 && (others?.n ?? 0) > 0) {
      throw new DomainError(409, 'only_admin', "You can't leave the organization (only admin)");
    }
  }
  // The recordings go first (files are not covered by the database's cascade); the rows follow with the user.
  const sessions = await ctx.db.select({ id: consultationSessions.id }).from(consultationSessions).where(eq(consultationSessions.userId, user.id));
  for (const s of sessions) await ctx.blobs.deletePrefix(sessionBlobPrefix(s.id));
  const requests = await ctx.db.select({ id: customDocumentRequests.id }).from(customDocumentRequests).where(eq(customDocumentRequests.userId, user.id));
  for (const r of requests) await ctx.blobs.deletePrefix(customDocumentBlobPrefix(r.id));
  // Research spaces of one's own go too; those shared with an organization stay with its members. Their files go
  // before their rows: should a deletion fail, the rows still name the files and deleting the account again finds them.
  const ownSpaces = and(eq(researchSpaces.createdBy, user.id), isNull(researchSpaces.organizationId));
  const spaces = await ctx.db.select({ id: researchSpaces.id }).from(researchSpaces).where(ownSpaces);
  for (const s of spaces) await ctx.blobs.deletePrefix(researchBlobPrefix(s.id));
  await ctx.db.delete(researchSpaces).where(ownSpaces);
  // The cascade removes the session rows, but a token checked a moment ago may still sit in this process's short
  // liveness cache (session-tokens.ts): revoking first drops it there too, so the token dies with the account.
  await ctx.sessions.revokeAllFor(user.id);
  await ctx.db.delete(users).where(eq(users.id, user.id));
  ctx.requestScrub();
}
