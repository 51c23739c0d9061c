import { and, eq } from 'drizzle-orm';
import { newRandomToken, sha256 } from '../../auth/one-time-tokens.js';
import type { Database } from '../../db/client.js';
import { organizationInvitations, organizations } from '../../db/schema.js';
import { DomainError } from '../../errors/domain-error.js';

export const INVITATION_TTL_DAYS = 7;
export type InvitationRow = typeof organizationInvitations.$inferSelect;
export type Role = 'admin' | 'member';

export const invitationPath = (token: string) => `/organization/invitations/${token}`;
export const signupLink = (publicUrl: string, token: string) => `${publicUrl}/signup?ref=${invitationPath(token)}`;
/** The link mailed to invitees: the page where a signed-in clinician answers, and a newcomer creates an account. */
export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}${invitationPath(token)}`;

export async function createInvitation(
  db: Database,
  input: { organizationId: string; email: string; role: Role },
): Promise<{ invitation: InvitationRow; token: string }> {
  const token = newRandomToken();
  const [invitation] = await db
    .insert(organizationInvitations)
    .values({
      organizationId: input.organizationId,
      email: input.email.trim().toLowerCase(),
      role: input.role,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
    })
    .returning();
  return { invitation: invitation!, token };
}

/** The pending invitation behind a token, or the precise reason it cannot be used. */
async function findByToken(db: Database, token: string) {
  const [row] = await db
    .select({ invitation: organizationInvitations, organizationName: organizations.name })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
    .where(eq(organizationInvitations.tokenHash, sha256(token)))
    .limit(1);
  if (!row) throw new DomainError(404, 'invitation_invalid', 'This invitation does not exist');
  return row;
}

export async function findUsableInvitation(db: Database, token: string): Promise<InvitationRow & { organizationName: string }> {
  const row = await findByToken(db, token);
  const inv = row.invitation;
  if (inv.status !== 'pending') {
    throw new DomainError(409, 'invitation_already_responded', 'You have already responded to this invitation');
  }
  if (inv.expiresAt.getTime() <= Date.now()) {
    throw new DomainError(410, 'invitation_expired', 'This invitation has expired');
  }
  return { ...inv, organizationName: row.organizationName };
}

/** Marks the invitation answered; the status check in the WHERE makes a second answer impossible. */
export async function markInvitation(db: Database, id: string, status: 'accepted' | 'rejected'): Promise<void> {
  const updated = await db
    .update(organizationInvitations)
    .set({ status, respondedAt: new Date() })
    .where(and(eq(organizationInvitations.id, id), eq(organizationInvitations.status, 'pending')))
    .returning({ id: organizationInvitations.id });
  if (updated.length === 0) {
    throw new DomainError(409, 'invitation_already_responded', 'You have already responded to this invitation');
  }
}

/** What the invitation page shows before anyone answers: the organization, the address and where the invitation stands. */
export async function describeInvitation(db: Database, token: string) {
  const row = await findByToken(db, token);
  const inv = row.invitation;
  const status = inv.status === 'pending' && inv.expiresAt.getTime() <= Date.now() ? 'expired' : inv.status;
  return { organization_name: row.organizationName, email: inv.email, role: inv.role as Role, status, expires_at: inv.expiresAt.toISOString() };
}
