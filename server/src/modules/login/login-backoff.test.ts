import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginBackoff, loginKnownSources } from '../../db/schema.js';
import { backgroundSettled, createUser, lastMailToken, uniqueEmail } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const FAILURES = 3;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_FAILURES_PER_EMAIL: String(FAILURES), LOGIN_RATE_LIMIT_PER_MINUTE: '12' });
});
afterAll(() => t.close());

const newDevice = () => randomBytes(16).toString('hex');
let net = 0;
/** A fresh /24 for each test, so the per-address rate limit never interferes. */
const addresses = () => {
  net++;
  return (host: number) => `10.${100 + net}.0.${host}`;
};
const post = (email: string, password: string, address: string, deviceId?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/login',
    remoteAddress: address,
    headers: deviceId ? { 'x-device-id': deviceId } : {},
    payload: { user: { email, password } },
  });

/** The back-off rows an action adds (they are keyed by an HMAC of the e-mail, which the test cannot name). */
async function rowsAddedBy(action: () => Promise<unknown>) {
  const before = (await t.ctx.db.select({ key: loginBackoff.accountKey }).from(loginBackoff)).map((r) => r.key);
  await action();
  const all = await t.ctx.db.select().from(loginBackoff);
  return all.filter((r) => !before.includes(r.accountKey));
}
/** Ends the current pause of these rows, as if its time had passed. */
async function endPause(keys: string[]) {
  await t.ctx.db.update(loginBackoff).set({ blockedUntil: sql`now() - interval '1 second'` }).where(inArray(loginBackoff.accountKey, keys));
}

describe('per-account back-off of password sign-ins', () => {
  it('10 wrong passwords from 10 addresses do not stop the clinician at a known address or device; unknown sources wait', async () => {
    const ip = addresses();
    const u = await createUser(t);
    const device = newDevice();
    // The clinician's usual desktop: its address and its device become known to the account.
    expect((await post(u.email, u.password, ip(1), device)).statusCode).toBe(200);

    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await post(u.email, `guess-${i}`, ip(10 + i))).statusCode);
    expect(codes).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);

    // The right password from an unknown address is refused during the pause (the pause is no password oracle).
    const paused = await post(u.email, u.password, ip(50));
    expect(paused.statusCode).toBe(429);
    expect(paused.json().error.code).toBe('too_many_requests');
    expect(paused.json().error.message).toMatch(/a device you have signed in from before/);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(paused.headers['retry-after'])).toBeLessThanOrEqual(60);

    // Meanwhile the clinician signs in from the known address, and with the known device from anywhere.
    expect((await post(u.email, u.password, ip(1))).statusCode).toBe(200);
    expect((await post(u.email, u.password, ip(60), device)).statusCode).toBe(200);
    // A device id the account never signed in with is no pass.
    expect((await post(u.email, u.password, ip(61), newDevice())).statusCode).toBe(429);
  });

  it('each further failure from an unknown source doubles the pause, up to 15 minutes; the pause ends by itself', async () => {
    const ip = addresses();
    const u = await createUser(t);
    const [row] = await rowsAddedBy(async () => {
      for (let i = 0; i < FAILURES; i++) expect((await post(u.email, 'wrong', ip(i + 1))).statusCode).toBe(401);
    });
    const pauses: number[] = [];
    const pauseSeconds = async () => {
      const [r] = await t.ctx.db.select().from(loginBackoff).where(eq(loginBackoff.accountKey, row!.accountKey));
      return Math.round((r!.blockedUntil!.getTime() - Date.now()) / 1000);
    };
    pauses.push(await pauseSeconds());
    for (let i = 0; i < 6; i++) {
      await endPause([row!.accountKey]);
      expect((await post(u.email, 'wrong', ip(20 + i))).statusCode).toBe(401);
      pauses.push(await pauseSeconds());
    }
    const expected = [60, 120, 240, 480, 900, 900, 900];
    pauses.forEach((p, i) => expect(Math.abs(p - expected[i]!)).toBeLessThanOrEqual(3));

    // Once the pause is over, the right password from an unknown address signs in and the count starts afresh.
    await endPause([row!.accountKey]);
    expect((await post(u.email, u.password, ip(40))).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(loginBackoff).where(eq(loginBackoff.accountKey, row!.accountKey))).toEqual([]);
  });

  it('known addresses and known devices keep counts of their own', async () => {
    const ip = addresses();
    const u = await createUser(t);
    const device = newDevice();
    expect((await post(u.email, u.password, ip(1))).statusCode).toBe(200);
    expect((await post(u.email, u.password, ip(2), device)).statusCode).toBe(200);
    // Someone at the known address (a shared clinic network) gets twice the allowance, then waits too…
    const codes: number[] = [];
    for (let i = 0; i < 2 * FAILURES + 1; i++) codes.push((await post(u.email, 'wrong', ip(1))).statusCode);
    expect(codes).toEqual([...Array<number>(2 * FAILURES).fill(401), 429]);
    expect((await post(u.email, u.password, ip(1))).statusCode).toBe(429);
    // …without touching the unknown sources' count, nor the known device.
    expect((await post(u.email, u.password, ip(3))).statusCode).toBe(200);
    expect((await post(u.email, u.password, ip(1), device)).statusCode).toBe(200);
  });

  it('an e-mail without account is paused alike, so a pause tells nobody who has an account', async () => {
    const ip = addresses();
    const ghost = uniqueEmail('ghost');
    const codes: number[] = [];
    for (let i = 0; i < FAILURES + 1; i++) codes.push((await post(ghost, 'whatever', ip(i + 1))).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
  });

  it('the device that created the account is known from the start', async () => {
    const ip = addresses();
    const device = newDevice();
    const email = uniqueEmail('signup');
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      remoteAddress: ip(1),
      headers: { 'x-device-id': device },
      payload: { user: { name: 'Nova Conta', email, password: 'signup-secret', language: 'pt' } },
    });
    expect(signup.statusCode).toBe(202);
    // The device is remembered with the confirmation mail, after the answer; the address is confirmed from the mail.
    await backgroundSettled(t);
    expect((await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${lastMailToken(t, email)}` })).statusCode).toBe(200);
    for (let i = 0; i < FAILURES; i++) await post(email, 'wrong', ip(10 + i));
    expect((await post(email, 'signup-secret', ip(30))).statusCode).toBe(429);
    expect((await post(email, 'signup-secret', ip(31), device)).statusCode).toBe(200);
  });

  it('a password reset through the mailbox lifts the pause', async () => {
    const ip = addresses();
    const u = await createUser(t);
    for (let i = 0; i < FAILURES; i++) await post(u.email, 'wrong', ip(i + 1));
    expect((await post(u.email, u.password, ip(20))).statusCode).toBe(429);
    await t.app.inject({ method: 'POST', url: '/v1/reset_password', remoteAddress: ip(21), payload: { email: u.email } });
    await backgroundSettled(t);
    const token = lastMailToken(t, u.email);
    const reset = await t.app.inject({
      method: 'PATCH',
      url: `/v1/reset_password/${token}`,
      remoteAddress: ip(22),
      payload: { password: 'brand-new-pass', password_confirmation: 'brand-new-pass' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await post(u.email, 'brand-new-pass', ip(23))).statusCode).toBe(200);
  });

  it('stores neither addresses nor device ids, only keyed hashes', async () => {
    const ip = addresses();
    const u = await createUser(t);
    const device = newDevice();
    expect((await post(u.email, u.password, ip(7), device)).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(loginKnownSources).where(eq(loginKnownSources.userId, u.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['address', 'device']);
    const stored = JSON.stringify(rows) + JSON.stringify(await t.ctx.db.select().from(loginBackoff));
    for (const secret of [ip(7), device, u.email]) expect(stored).not.toContain(secret);
  });

  it('ignores a malformed device id', async () => {
    const ip = addresses();
    const u = await createUser(t);
    expect((await post(u.email, u.password, ip(1), 'short')).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(loginKnownSources).where(eq(loginKnownSources.userId, u.id));
    expect(rows.map((r) => r.kind)).toEqual(['address']);
  });

  it('forgets sources unused for 180 days', async () => {
    const ip = addresses();
    const u = await createUser(t);
    const device = newDevice();
    expect((await post(u.email, u.password, ip(1), device)).statusCode).toBe(200);
    await t.ctx.db.update(loginKnownSources).set({ lastSeenAt: sql`now() - interval '181 days'` }).where(eq(loginKnownSources.userId, u.id));
    for (let i = 0; i < FAILURES; i++) await post(u.email, 'wrong', ip(10 + i));
    expect((await post(u.email, u.password, ip(1), device)).statusCode).toBe(429);
  });
});

describe('behind a proxy (TRUST_PROXY=true)', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ TRUST_PROXY: 'true', LOGIN_FAILURES_PER_EMAIL: '2', LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => p.close());
  const viaProxy = (email: string, password: string, client: string) =>
    p.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress: '192.168.0.1',
      headers: { 'x-forwarded-for': client },
      payload: { user: { email, password } },
    });

  it('the forwarded client address is the address of the per-address limit and of the known addresses', async () => {
    const u = await createUser(p);
    expect((await viaProxy(u.email, u.password, '203.0.113.1')).statusCode).toBe(200);
    for (const client of ['203.0.113.10', '203.0.113.11']) expect((await viaProxy(u.email, 'wrong', client)).statusCode).toBe(401);
    expect((await viaProxy(u.email, u.password, '203.0.113.12')).statusCode).toBe(429);
    expect((await viaProxy(u.email, u.password, '203.0.113.1')).statusCode).toBe(200);
    // Three attempts a minute per client address: the fourth from one client is refused, another client goes on.
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await viaProxy(`x${i}@clinic.test`, 'whatever', '198.51.100.7')).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    expect((await viaProxy('y@clinic.test', 'whatever', '198.51.100.8')).statusCode).toBe(401);
  });
});
