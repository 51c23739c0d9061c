import { count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { organizations, users } from '../../db/schema.js';
import { createInvitation, signupLink } from '../organization_invitations/service.js';
import { grantCredits } from '../credits/service.js';

/** Support's way to open a clinic: the organization plus an admin invitation whose signup link is handed over. */
export async function createOrganizationWithAdmin(
  db: Database,
  input: { name: string; adminEmail: string; publicUrl: string; initialCredits?: number },
): Promise<{ organizationId: string; signupLink: string }> {
  const [org] = await db.insert(organizations).values({ name: input.name.trim() }).returning();
  if (input.initialCredits) await grantCredits(db, { organizationId: org!.id }, input.initialCredits, 'initial grant');
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
