import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import type { Language } from '../../../../contract/constants.js';
import type { UserRow } from '../../auth/users.js';
import type { Database } from '../../db/client.js';
import { organizationInvitations, organizations, users } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { mailTemplates } from '../../mail/templates.js';
import { createInvitation, INVITATION_TTL_DAYS, invitationLink, signupLink, type Role } from '../organization_invitations/service.js';
import { grantCredits } from '../credits/service.js';

/** Support's way to open a clinic: the organization plus an admin invitation whose signup link is handed over. */
export async function createOrganizationWithAdmin(
  db: Database,
  input: { name: string; adminEmail: string; publicUrl: string; initialCredits?: number },
): Promise<{ organizationId: string; signupLink: string }> {
  const [org] = await db.insert(organizations).values({ name: input.name.trim() }).returning();
  if (input.initialCredits) await grantCredits(db, { organizationId: org!.id }, input.initialCredits, undefined, undefined, 'initial_grant');
  const { token } = await createInvitation(db, { organizationId: org!.id, email: input.adminEmail, role: 'admin' });
  return { organizationId: org!.id, signupLink: signupLink(input.publicUrl, token) };
}

export async function countOrganizations(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(organizations);
  return row?.n ?? 0;
}

export async function listUserOrganizations(db: Database, userId: string) {
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, role: users.organizationRole })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, userId));
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role === 'admin' ? ('admin' as const) : ('member' as const) }));
}

export type Membership = { organizationId: string; role: Role; organizationName: string };

/**
 * The caller's place in the organization of the URL. A stranger gets 404, as if it did not exist; a member asking
 * for an admin's right gets 403. Checked on every call, from the database, never from the token.
 */
export async function requireMembership(db: Database, user: UserRow, organizationId: string, need: 'member' | 'admin'): Promise<Membership> {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org || user.organizationId !== organizationId) throw notFound('Organization not found');
  const role: Role = user.organizationRole === 'admin' ? 'admin' : 'member';
  if (need === 'admin' && role !== 'admin') throw new DomainError(403, 'forbidden', 'Only an administrator of the organization can do this');
  return { organizationId, role, organizationName: org.name };
}

export async function listMembers(db: Database, organizationId: string) {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.organizationRole, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.organizationId, organizationId))
    .orderBy(asc(users.name));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role === 'admin' ? ('admin' as const) : ('member' as const),
    created_at: r.createdAt.toISOString(),
  }));
}

async function countAdmins(db: Database, organizationId: string, except?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.organizationRole, 'admin'), ...(except ? [ne(users.id, except)] : [])));
  return row?.n ?? 0;
}

const onlyAdmin = () => new DomainError(409, 'only_admin', "You can't leave the organization (only admin)");

/** Leaving, being removed or being demoted must leave at least one admin behind. */
export async function assertAnotherAdmin(db: Database, organizationId: string, userId: string): Promise<void> {
  const [u] = await db.select({ role: users.organizationRole }).from(users).where(eq(users.id, userId));
  if (u?.role === 'admin' && (await countAdmins(db, organizationId, userId)) === 0) throw onlyAdmin();
}

export async function leaveOrganization(db: Database, userId: string, organizationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await assertAnotherAdmin(tx as unknown as Database, organizationId, userId);
    await tx
      .update(users)
      .set({ organizationId: null, organizationRole: null, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
  });
}

export async function requireMember(db: Database, organizationId: string, memberId: string) {
  const [member] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, memberId), eq(users.organizationId, organizationId)));
  if (!member) throw notFound('Member not found');
  return member;
}

export async function removeMember(db: Database, organizationId: string, memberId: string): Promise<void> {
  await requireMember(db, organizationId, memberId);
  await leaveOrganization(db, memberId, organizationId);
}

export async function changeRole(db: Database, organizationId: string, memberId: string, role: Role) {
  await requireMember(db, organizationId, memberId);
  await db.transaction(async (tx) => {
    if (role === 'member') await assertAnotherAdmin(tx as unknown as Database, organizationId, memberId);
    await tx
      .update(users)
      .set({ organizationRole: role, updatedAt: new Date() })
      .where(and(eq(users.id, memberId), eq(users.organizationId, organizationId)));
  });
  return (await listMembers(db, organizationId)).find((m) => m.id === memberId)!;
}

export type InvitationStatus = 'pending' | 'accepted' | 'rejected' | 'expired';

export function invitationStatus(row: typeof organizationInvitations.$inferSelect, now = Date.now()): InvitationStatus {
  if (row.status === 'pending' && row.expiresAt.getTime() <= now) return 'expired';
  return row.status as InvitationStatus;
}

export const invitationView = (row: typeof organizationInvitations.$inferSelect) => ({
  id: row.id,
  email: row.email,
  role: row.role as Role,
  status: invitationStatus(row),
  invited_at: row.invitedAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  responded_at: row.respondedAt?.toISOString() ?? null,
});

export async function listInvitations(db: Database, organizationId: string) {
  const rows = await db
    .select()
    .from(organizationInvitations)
    .where(eq(organizationInvitations.organizationId, organizationId))
    .orderBy(desc(organizationInvitations.invitedAt));
  return rows.map(invitationView);
}

/** The invitee's language when they already have an account, otherwise the inviter's. */
async function mailInvitation(ctx: AppContext, to: string, organizationName: string, token: string, inviterLanguage: Language) {
  const [existing] = await ctx.db.select({ language: users.language }).from(users).where(eq(users.email, to));
  const language = (existing?.language ?? inviterLanguage) as Language;
  const link = invitationLink(ctx.config.publicUrl, token);
  const mail = mailTemplates.invitation[language](organizationName, link, INVITATION_TTL_DAYS);
  await ctx.mailer.send({ to, ...mail, link });
}

export type InviteResult = { email: string; result: 'invited' | 'already_member' | 'already_invited' };

/** One invitation per new address; addresses already in the organization or with a pending invitation are reported, not repeated. */
export async function inviteMembers(ctx: AppContext, inviter: UserRow, membership: Membership, emails: string[], role: Role): Promise<InviteResult[]> {
  const results: InviteResult[] = [];
  for (const email of [...new Set(emails.map((e) => e.trim().toLowerCase()))]) {
    const [member] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), eq(users.organizationId, membership.organizationId)));
    if (member) {
      results.push({ email, result: 'already_member' });
      continue;
    }
    const pending = (
      await ctx.db
        .select()
        .from(organizationInvitations)
        .where(and(eq(organizationInvitations.organizationId, membership.organizationId), eq(organizationInvitations.email, email)))
    ).find((r) => invitationStatus(r) === 'pending');
    if (pending) {
      results.push({ email, result: 'already_invited' });
      continue;
    }
    const { token } = await createInvitation(ctx.db, { organizationId: membership.organizationId, email, role });
    await mailInvitation(ctx, email, membership.organizationName, token, inviter.language as Language);
    results.push({ email, result: 'invited' });
  }
  return results;
}

async function requireInvitation(db: Database, organizationId: string, invitationId: string) {
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(and(eq(organizationInvitations.id, invitationId), eq(organizationInvitations.organizationId, organizationId)));
  if (!row) throw notFound('Invitation not found');
  return row;
}

/** A fresh link and a fresh week for a pending or expired invitation; the old link stops working. */
export async function resendInvitation(ctx: AppContext, inviter: UserRow, membership: Membership, invitationId: string) {
  const row = await requireInvitation(ctx.db, membership.organizationId, invitationId);
  const status = invitationStatus(row);
  if (status === 'accepted' || status === 'rejected') throw new DomainError(409, 'invitation_already_responded', 'This invitation has already been answered');
  await ctx.db.delete(organizationInvitations).where(eq(organizationInvitations.id, row.id));
  const { invitation, token } = await createInvitation(ctx.db, { organizationId: membership.organizationId, email: row.email, role: row.role as Role });
  await mailInvitation(ctx, row.email, membership.organizationName, token, inviter.language as Language);
  return invitationView(invitation);
}

/** Revoking deletes the invitation: its link answers "does not exist" from then on. */
export async function revokeInvitation(db: Database, organizationId: string, invitationId: string): Promise<void> {
  const row = await requireInvitation(db, organizationId, invitationId);
  if (invitationStatus(row) === 'accepted') throw new DomainError(409, 'invitation_already_responded', 'This invitation has already been accepted');
  await db.delete(organizationInvitations).where(eq(organizationInvitations.id, row.id));
}
