import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_FAILURES_PER_EMAIL: '3', LOGIN_RATE_LIMIT_PER_MINUTE: '12' });
});
afterAll(() => t.close());

const post = (email: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: ip, payload: { user: { email, password } } });

describe('POST /v1/login', () => {
  it('returns d_user and the token in the Authorization header', async () => {
    const u = await createUser(t, { name: 'Ana Lima' });
    const res = await post(u.email.toUpperCase(), u.password, '10.0.0.2');
    expect(res.statusCode).toBe(200);
    expect(res.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const body = res.json();
    expect(body.d_user).toMatchObject({ id: u.id, name: 'Ana Lima', email: u.email, language: 'en' });
    expect(JSON.stringify(body)).not.toContain('password_hash');
    const token = String(res.headers.authorization).slice(7);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 401 invalid_credentials for a wrong password and for an unknown e-mail alike', async () => {
    const u = await createUser(t);
    const wrong = await post(u.email, 'not-the-password', '10.0.0.3');
    const unknown = await post('nobody@clinic.test', 'whatever', '10.0.0.3');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_credentials');
    }
  });

  it('validates the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '10.0.0.4', payload: { user: { email: 'x' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty(['user.email']);
    expect(res.json().error.fields).toHaveProperty(['user.password']);
  });

  it('limits attempts per IP address', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 14; i++) codes.push((await post(`ip-${i}@clinic.test`, 'whatever', '10.2.0.1')).statusCode);
    expect(codes.slice(0, 12).every((c) => c === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // Another address is not affected.
    expect((await post('other@clinic.test', 'whatever', '10.2.0.2')).statusCode).toBe(401);
  });
});

describe('tokens', () => {
  it('logout revokes the token server-side', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(token) })).statusCode).toBe(200);
    // The hot polling path trusts a checked token for a moment, but a revocation in this process clears it at once.
    expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/logout', headers: bearer(token) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers: bearer(token) })).statusCode).toBe(401);
    const after = await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthorized');
  });

  it('refuses missing, malformed, forged and expired tokens', async () => {
    const u = await createUser(t);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setJti(crypto.randomUUID())
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setJti(crypto.randomUUID())
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(t.ctx.config.jwtSecret));
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }, bearer(forged), bearer(expired)]) {
      expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers })).statusCode).toBe(401);
    }
  });

  it('a valid signature is not enough: the session must exist', async () => {
    const u = await createUser(t);
    const unknownSession = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setJti(crypto.randomUUID())
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.ctx.config.jwtSecret));
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(unknownSession) })).statusCode).toBe(401);
  });
});
