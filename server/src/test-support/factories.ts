import { eq } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.js';
import { users } from '../db/schema.js';
import type { TestApp } from './test-app.js';
import { createOrganizationWithAdmin } from '../modules/organizations/service.js';

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++counter}@clinic.test`;

/** A user straight in the database (no HTTP), for tests about something else than signup. */
export async function createUser(t: TestApp, overrides: Partial<typeof users.$inferInsert> & { password?: string } = {}) {
  const { password = 'secret-pass', ...rest } = overrides;
  const [user] = await t.ctx.db
    .insert(users)
    // Confirmed unless a test says otherwise: an unconfirmed account cannot sign in with its password.
    .values({ name: 'Dr. Test', email: uniqueEmail(), passwordHash: await hashPassword(password), language: 'en', emailConfirmedAt: new Date(), ...rest })
    .returning();
  return { ...user!, password };
}

export async function login(t: TestApp, email: string, password: string) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email, password } } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return String(res.headers.authorization).replace('Bearer ', '');
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function createOrganizationInvite(t: TestApp, adminEmail: string, name = 'Clinic') {
  const { organizationId, signupLink } = await createOrganizationWithAdmin(t.ctx.db, { name, adminEmail, publicUrl: t.ctx.config.publicUrl });
  const token = signupLink.split('/').pop()!;
  return { organizationId, token, signupLink };
}

export async function getUserRow(t: TestApp, id: string) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Waits for the work requests left running after their answer (a password reset's link is mailed so). */
export async function backgroundSettled(t: TestApp): Promise<void> {
  while (t.ctx.background.size > 0) await Promise.allSettled([...t.ctx.background]);
}

/** The token at the end of the link in the last mail to `to`. */
export function lastMailToken(t: TestApp, to: string): string {
  const mail = [...t.mails].reverse().find((m) => m.to === to);
  if (!mail?.link) throw new Error(`no mail with a link to ${to}`);
  return mail.link.split('/').pop()!;
}
