import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationInvitations } from '../../db/schema.js';
import { bearer, createOrganizationInvite, createUser, lastMailToken, uniqueEmail } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ip = 0;
const signup = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/v1/signup', remoteAddress: `10.9.0.${++ip}`, payload: payload as Record<string, unknown> });
const user = (email: string, extra: Record<string, unknown> = {}) => ({ name: 'Rui Costa', email, password: 'secret1', language: 'pt', ...extra });

describe('POST /v1/signup through an invitation', () => {
  it('joins the inviting organization with the invited role, confirmed, and signs in', async () => {
    const email = uniqueEmail('admin');
    const { organizationId, token } = await createOrganizationInvite(t, email, 'Clínica Norte');
    const res = await signup({ user: user(email.toUpperCase()), invitation_token: token });
    expect(res.statusCode).toBe(201);
    expect(res.headers.authorization).toMatch(/^Bearer /);
    expect(res.json().d_user).toMatchObject({ email, organization_id: organizationId, organization_role: 'admin', email_confirmed: true, language: 'pt' });
    expect(t.mails.filter((m) => m.to === email)).toHaveLength(0);

    const orgs = await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(res.json().token) });
    expect(orgs.json()).toEqual({ organizations: [{ id: organizationId, name: 'Clínica Norte', role: 'admin' }] });
    const [inv] = await t.ctx.db.select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, organizationId));
    expect(inv?.status).toBe('accepted');
  });

  it('refuses a used, expired, unknown or mismatched invitation', async () => {
    const email = uniqueEmail('inv');
    const { token, organizationId } = await createOrganizationInvite(t, email);
    const mismatch = await signup({ user: user(uniqueEmail('other')), invitation_token: token });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.code).toBe('invitation_email_mismatch');

    expect((await signup({ user: user(email), invitation_token: token })).statusCode).toBe(201);
    const reused = await signup({ user: user(uniqueEmail('again')), invitation_token: token });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('invitation_already_responded');

    const unknown = await signup({ user: user(uniqueEmail()), invitation_token: 'f'.repeat(64) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('invitation_invalid');

    const late = uniqueEmail('late');
    const expired = await createOrganizationInvite(t, late);
    await t.ctx.db
      .update(organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizationInvitations.organizationId, expired.organizationId));
    const res = await signup({ user: user(late), invitation_token: expired.token });
    expect(res.statusCode).toBe(410);
    expect(res.json().error.code).toBe('invitation_expired');
    expect(organizationId).toBeTruthy();
  });
});

describe('POST /v1/signup validation', () => {
  it.each([
    ['short name', { name: 'Al' }, 'user.name'],
    ['bad e-mail', { email: 'not-an-email' }, 'user.email'],
    ['short password', { password: '12345' }, 'user.password'],
    ['unsupported language', { language: 'fr' }, 'user.language'],
    ['missing language', { language: undefined }, 'user.language'],
    ['wrong type', { name: 42 }, 'user.name'],
    ['overlong name', { name: 'x'.repeat(500) }, 'user.name'],
  ])('%s → 400 with a field error', async (_n, change, field) => {
    const res = await signup({ user: user(uniqueEmail(), change) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(res.json().error.fields).toHaveProperty([field]);
  });

  it('refuses a taken e-mail with 409', async () => {
    const existing = await createUser(t);
    const res = await signup({ user: user(existing.email) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'email_taken', fields: { 'user.email': 'email_taken' } });
  });
});

describe('signup without an invitation and e-mail confirmation', () => {
  it('sends a confirmation link in the user language; confirming returns d_user and a token, once', async () => {
    const email = uniqueEmail('self');
    const res = await signup({ user: user(email, { language: 'de' }) });
    expect(res.statusCode).toBe(201);
    expect(res.json().d_user.email_confirmed).toBe(false);
    const mail = t.mails.find((m) => m.to === email)!;
    expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse');
    expect(mail.link).toMatch(/^http:\/\/clinic\.test\/confirm_email\/[0-9a-f]{64}$/);
    expect(mail.text).toContain(mail.link);

    const token = lastMailToken(t, email);
    const confirmed = await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${token}` });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().d_user.email_confirmed).toBe(true);
    expect(confirmed.json().token).toMatch(/\./);
    expect(confirmed.headers.authorization).toBe(`Bearer ${confirmed.json().token}`);

    const again = await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${token}` });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('invalid_or_expired_token');
  });
});
