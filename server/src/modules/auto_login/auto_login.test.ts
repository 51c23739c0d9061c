import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const INTEGRATION_KEY = 'integration-key-for-tests-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INTEGRATION_KEY });
});
afterAll(() => t.close());

describe('QR token and auto login', () => {
  it('issues a short-lived, single-use token that signs the phone in', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const qr = await t.app.inject({ method: 'POST', url: '/v1/qr_token', headers: bearer(token) });
    expect(qr.statusCode).toBe(201);
    const { token: qrToken, url, expires_at } = qr.json();
    expect(url).toBe(`http://clinic.test/autologin/${qrToken}`);
    expect(new Date(expires_at).getTime() - Date.now()).toBeLessThanOrEqual(120_000);

    const phone = await t.app.inject({ method: 'POST', url: '/v1/auto_login/', payload: { token: qrToken } });
    expect(phone.statusCode).toBe(200);
    expect(phone.json().d_user.id).toBe(u.id);
    expect(phone.headers.authorization).toMatch(/^Bearer /);

    const again = await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token: qrToken } });
    expect(again.statusCode).toBe(401);
  });

  it('needs a signed-in user to issue one', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/v1/qr_token' })).statusCode).toBe(401);
  });
});

describe('signed token login', () => {
  const sign = (claims: Record<string, unknown>, key = INTEGRATION_KEY, exp: number | string = '2m') => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
    if (exp) jwt.setExpirationTime(exp);
    return jwt.sign(new TextEncoder().encode(key));
  };
  const post = (token: string) => t.app.inject({ method: 'POST', url: '/v1/signed_token_login/', payload: { token } });

  it('signs in the user named by a JWT signed with the integration key', async () => {
    const u = await createUser(t);
    const res = await post(await sign({ email: u.email }));
    expect(res.statusCode).toBe(200);
    expect(res.json().d_user.id).toBe(u.id);
  });

  it('refuses another key, no exp, an expired token and an unknown user', async () => {
    const u = await createUser(t);
    for (const token of [
      await sign({ email: u.email }, 'another-key-another-key-another-key'),
      await sign({ email: u.email }, INTEGRATION_KEY, 0),
      await sign({ email: u.email }, INTEGRATION_KEY, Math.floor(Date.now() / 1000) - 5),
      await sign({ email: 'nobody@clinic.test' }),
    ]) {
      expect((await post(token)).statusCode).toBe(401);
    }
  });
});
