import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationInvitations, users } from '../../db/schema.js';
import { backgroundSettled, bearer, createOrganizationInvite, createUser, lastMailToken, login, uniqueEmail } from '../../test-support/factories.js';
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
});

describe('signup without an invitation and e-mail confirmation', () => {
  it('sends a confirmation link in the user language; confirming returns d_user and a token, once', async () => {
    const email = uniqueEmail('self');
    const res = await signup({ user: user(email, { language: 'de' }) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });
    // Nobody is signed in before the mailbox is proven: an answer with a session would tell a new address from a taken one.
    expect(res.headers.authorization).toBeUndefined();
    await backgroundSettled(t);
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

describe('signup with an address that already has an account', () => {
  const accountsWith = async (email: string) => (await t.ctx.db.select().from(users).where(eq(users.email, email))).length;
  /** The answer as a client sees it: status, headers that matter and body. */
  const seen = (res: Awaited<ReturnType<typeof signup>>) => ({ status: res.statusCode, authorization: res.headers.authorization, body: res.json() });

  it('answers exactly as for a new address, creates and changes nothing, and tells only the owner by mail', async () => {
    const owner = await createUser(t, { language: 'pt', emailConfirmedAt: new Date() });
    const fresh = await signup({ user: user(uniqueEmail('fresh')) });
    const before = t.mails.length;
    const taken = await signup({ user: user(owner.email.toUpperCase(), { password: 'attacker-pass', name: 'Someone Else' }) });
    expect(seen(taken)).toEqual(seen(fresh));
    expect(JSON.stringify(taken.json())).not.toContain('email_taken');
    await backgroundSettled(t);

    expect(await accountsWith(owner.email)).toBe(1);
    await expect(login(t, owner.email, owner.password)).resolves.toBeTruthy();
    await expect(login(t, owner.email, 'attacker-pass')).rejects.toThrow(/401/);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, owner.email));
    expect(row?.name).not.toBe('Someone Else');

    const mails = t.mails.slice(before).filter((m) => m.to === owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Tentativa de criar uma conta com o seu endereço');
    expect(mails[0]!.text).toContain('http://clinic.test/login');
    expect(mails[0]!.text).toContain('http://clinic.test/reset');
    expect(mails[0]!.text).toContain('palavra-passe');
  });

  it('an account never confirmed: no sign-in with its password, the same answer as a wrong one; its owner gets a link to choose the password', async () => {
    const email = uniqueEmail('squat');
    // Someone else started an account for this address and chose its password.
    const squatterIp = `10.9.0.${ip + 1}`;
    expect((await signup({ user: user(email, { password: 'squatter-pass', language: 'en' }) })).statusCode).toBe(202);
    await backgroundSettled(t);
    const before = t.mails.length;

    // Signing in with the password just chosen answers as a wrong password does: it tells nobody the address was free.
    const confirmed = await createUser(t);
    const wrong = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email: confirmed.email, password: 'not-the-password' } } });
    const squatter = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email, password: 'squatter-pass' } } });
    expect({ status: squatter.statusCode, body: squatter.json(), authorization: squatter.headers.authorization }).toEqual({
      status: wrong.statusCode,
      body: wrong.json(),
      authorization: undefined,
    });
    expect(squatter.statusCode).toBe(401);
    await backgroundSettled(t);
    // The address's owner hears how to finish: a link to choose the password, with no name the requester chose in it.
    const mails = t.mails.slice(before).filter((m) => m.to === email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Finish creating your account');
    expect(mails[0]!.text.startsWith('Hello,\n')).toBe(true);
    expect(mails[0]!.link).toMatch(/^http:\/\/clinic\.test\/reset_password\/[0-9a-f]{64}$/);

    // A second sign-up answers the same and sends nothing more within the window: the owner's inbox is not a target.
    const again = await signup({ user: user(email, { password: 'owner-pass-1' }) });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ ok: true });
    for (let i = 0; i < 5; i++) await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email, password: 'squatter-pass' } } });
    await backgroundSettled(t);
    expect(await accountsWith(email)).toBe(1);
    expect(t.mails.slice(before).filter((m) => m.to === email)).toHaveLength(1);
    await expect(login(t, email, 'owner-pass-1')).rejects.toThrow(/401/);

    // The owner finishes through the mailbox: the password is theirs, the address confirmed, the squatter's device
    // and address no longer trusted.
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(await t.ctx.loginLimiter.trustOf(row!.id, { address: squatterIp })).toBe('address');
    const token = mails[0]!.link!.split('/').pop()!;
    const done = await t.app.inject({
      method: 'PATCH',
      url: `/v1/reset_password/${token}`,
      payload: { password: 'owner-pass-2', password_confirmation: 'owner-pass-2' },
    });
    expect(done.statusCode).toBe(200);
    expect(await t.ctx.loginLimiter.trustOf(row!.id, { address: squatterIp })).toBe('unknown');
    await expect(login(t, email, 'squatter-pass')).rejects.toThrow(/401/);
    const session = await login(t, email, 'owner-pass-2');
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(session) })).json().d_user.email_confirmed).toBe(true);
  });

  it('a name with a line break or a control character is refused', async () => {
    for (const name of ['Rui\n\nAccount locked, verify at https://evil.example', 'Rui\u0007Costa', 'Rui \u202Eetsoc']) {
      const res = await signup({ user: user(uniqueEmail('name'), { name }) });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().error.fields['user.name']).toBe('invalid_name');
    }
    expect((await signup({ user: user(uniqueEmail('name'), { name: 'Zoë Ковальчук-Ñúñez' }) })).statusCode).toBe(202);
  });

  it('through an invitation to an address that has an account: the same check-your-mail answer, the invitation left to accept', async () => {
    const owner = await createUser(t, { language: 'es', emailConfirmedAt: new Date() });
    const { token, organizationId } = await createOrganizationInvite(t, owner.email);
    const before = t.mails.length;
    const res = await signup({ user: user(owner.email, { password: 'other-pass' }), invitation_token: token });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers.authorization).toBeUndefined();
    await backgroundSettled(t);
    const mail = t.mails.slice(before).find((m) => m.to === owner.email)!;
    expect(mail.subject).toBe('Alguien intentó crear una cuenta con su dirección');
    expect(mail.text).toContain(`http://clinic.test/login?ref=/organization/invitations/${token}`);
    const [inv] = await t.ctx.db.select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, organizationId));
    expect(inv?.status).toBe('pending');
    await expect(login(t, owner.email, owner.password)).resolves.toBeTruthy();
  });
});
