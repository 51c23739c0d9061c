import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
