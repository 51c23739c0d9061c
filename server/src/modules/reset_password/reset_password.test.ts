import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../../mail/mailer.js';
import { oneTimeTokens } from '../../db/schema.js';
import { backgroundSettled, bearer, createUser, lastMailToken, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ip = 0;
const requestNow = (email: string) => t.app.inject({ method: 'POST', url: '/v1/reset_password', remoteAddress: `10.3.0.${++ip}`, payload: { email } });
/** Asks for a link and waits until it is mailed (the answer does not wait for that). */
const request = async (email: string) => {
  const res = await requestNow(email);
  await backgroundSettled(t);
  return res;
};
const confirm = (token: string, password: string, password_confirmation = password) =>
  t.app.inject({ method: 'PATCH', url: `/v1/reset_password/${token}`, remoteAddress: `10.4.0.${++ip}`, payload: { password, password_confirmation } });

describe('password reset', () => {
  it('answers the same whether or not the e-mail exists', async () => {
    const before = t.mails.length;
    const res = await request('ghost@clinic.test');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });
    expect(t.mails.length).toBe(before);
  });

  describe('does not wait for the mail, so its timing tells nothing of who has an account', () => {
    let mailer: Mailer;
    let release = () => {};
    beforeAll(() => {
      mailer = t.ctx.mailer;
    });
    afterEach(async () => {
      release();
      await backgroundSettled(t);
      t.ctx.mailer = mailer;
    });
    const within = <T>(ms: number, p: Promise<T>) =>
      Promise.race([p, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);

    it('answers 202 at once while the mail server has not answered', async () => {
      const u = await createUser(t);
      const held: Mail[] = [];
      // A mail server that accepts nothing until the test lets it (a hung SMTP connection).
      t.ctx.mailer = { send: (m) => new Promise<void>((resolve) => (held.push(m), (release = resolve))) };
      for (const email of [u.email, 'nobody.here@clinic.test']) {
        const res = await within(2000, requestNow(email));
        expect(res === 'still waiting' ? res : res.statusCode).toBe(202);
      }
      // The link is on its way all the same: it was handed to the mail server, which the test now lets finish.
      await expect.poll(() => held.length).toBe(1);
      expect(held[0]!.to).toBe(u.email);
    });

    it('a mail that fails is logged without the address or the error message', async () => {
      const u = await createUser(t);
      const failure = Object.assign(new Error(`550 5.1.1 <${u.email}>: Recipient address rejected`), { code: 'EENVELOPE' });
      t.ctx.mailer = { send: async () => Promise.reject(failure) };
      expect((await request(u.email)).statusCode).toBe(202);
      const line = t.logs.find((l) => l.includes('password reset mail not sent'));
      expect(line).toBeDefined();
      expect(line).toContain('EENVELOPE');
      expect(line).not.toContain(u.email);
      expect(t.logs.join('')).not.toContain(u.email);
    });
  });

  it('mails a single-use link in the user language and sets the new password', async () => {
    const u = await createUser(t, { language: 'pt' });
    const session = await login(t, u.email, u.password);
    const res = await request(u.email);
    expect(res.statusCode).toBe(202);
    const mail = t.mails.at(-1)!;
    expect(mail.subject).toBe('Redefinir a sua palavra-passe');
    expect(mail.link).toMatch(/^http:\/\/clinic\.test\/reset_password\/[0-9a-f]{64}$/);
    const token = lastMailToken(t, u.email);

    const mismatch = await confirm(token, 'brand-new', 'brand-neu');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields).toEqual({ password_confirmation: 'passwords_do_not_match' });
    expect((await confirm(token, '123')).statusCode).toBe(400);

    expect((await confirm(token, 'brand-new')).statusCode).toBe(200);
    const reuse = await confirm(token, 'another-one');
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe('invalid_or_expired_token');
    await expect(login(t, u.email, 'brand-new')).resolves.toBeTruthy();
    // Whoever held the old password is signed out.
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(session) })).statusCode).toBe(401);
  });

  it('using one link retires every other link still in the mailbox, and signs every device out', async () => {
    const u = await createUser(t);
    const session = await login(t, u.email, u.password);
    expect((await request(u.email)).statusCode).toBe(202);
    const first = lastMailToken(t, u.email);
    // Asking again keeps working: a second link arrives while the first is still unused.
    expect((await request(u.email)).statusCode).toBe(202);
    const second = lastMailToken(t, u.email);
    expect(second).not.toBe(first);

    expect((await confirm(first, 'first-new-password')).statusCode).toBe(200);
    const late = await confirm(second, 'second-new-password');
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toMatchObject({ code: 'invalid_or_expired_token', message: 'This link is invalid or has expired' });
    // The late link changed nothing: the password set by the first one holds.
    await expect(login(t, u.email, 'first-new-password')).resolves.toBeTruthy();
    await expect(login(t, u.email, 'second-new-password')).rejects.toThrow(/401/);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(session) })).statusCode).toBe(401);

    // A link asked for after the reset is a fresh one and works.
    await request(u.email);
    expect((await confirm(lastMailToken(t, u.email), 'third-new-password')).statusCode).toBe(200);
    await expect(login(t, u.email, 'third-new-password')).resolves.toBeTruthy();
  });

  it("retires only that user's links", async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    await request(a.email);
    await request(b.email);
    const tokenA = lastMailToken(t, a.email);
    const tokenB = lastMailToken(t, b.email);
    expect((await confirm(tokenA, 'a-new-password')).statusCode).toBe(200);
    expect((await confirm(tokenB, 'b-new-password')).statusCode).toBe(200);
  });

  it('a QR code and a confirmation link handed out before the reset open no session after it', async () => {
    // A confirmation link still in the mailbox of an account never confirmed (which cannot sign in with its password).
    const email = `reset.signin.${Date.now().toString(36)}@clinic.test`;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      remoteAddress: `10.5.0.${++ip}`,
      payload: { user: { name: 'Dra. Inês Cruz', email, password: 'old-password-1', language: 'en' } },
    });
    expect(signup.statusCode).toBe(202);
    await backgroundSettled(t);
    const confirmation = lastMailToken(t, email);
    await request(email);
    expect((await confirm(lastMailToken(t, email), 'brand-new-pass-2')).statusCode).toBe(200);
    const confirmed = await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${confirmation}`, remoteAddress: `10.5.0.${++ip}` });
    expect(confirmed.statusCode).toBe(400);
    expect(confirmed.headers.authorization).toBeUndefined();
    // The reset link reached the mailbox, so the address counts as confirmed without that link.
    const fresh = await login(t, email, 'brand-new-pass-2');
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(fresh) })).json().d_user.email_confirmed).toBe(true);

    // A session someone stole mints a QR code just before the clinician resets the password through the mailbox.
    const clinician = await createUser(t, { password: 'old-password-1' });
    const stolen = await login(t, clinician.email, 'old-password-1');
    const qr = await t.app.inject({ method: 'POST', url: '/v1/qr_token', headers: bearer(stolen) });
    expect(qr.statusCode).toBe(201);
    await request(clinician.email);
    expect((await confirm(lastMailToken(t, clinician.email), 'brand-new-pass-3')).statusCode).toBe(200);
    const phone = await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token: qr.json().token } });
    expect(phone.statusCode).toBe(401);
    expect(phone.headers.authorization).toBeUndefined();
    // A QR code minted after the reset works.
    const after = await login(t, clinician.email, 'brand-new-pass-3');
    const next = await t.app.inject({ method: 'POST', url: '/v1/qr_token', headers: bearer(after) });
    expect((await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token: next.json().token } })).statusCode).toBe(200);
  });

  it('refuses an expired link', async () => {
    const u = await createUser(t);
    await request(u.email);
    const token = lastMailToken(t, u.email);
    await t.ctx.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(oneTimeTokens.userId, u.id));
    expect((await confirm(token, 'brand-new')).json().error.code).toBe('invalid_or_expired_token');
  });
});
