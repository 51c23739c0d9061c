/**
 * A burst of concurrent guesses against one account: the per-account back-off must count every attempt before
 * its password is checked, or all of a burst gets checked before the first failure is recorded. The password
 * checks are counted where they happen (the argon2 verification), not inferred from the answers alone.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, uniqueEmail } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const checks = vi.hoisted(() => ({ verify: 0, burn: 0 }));
vi.mock('../../auth/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../auth/passwords.js')>();
  return {
    ...real,
    verifyPassword: async (passwordHash: string, password: string) => {
      checks.verify++;
      return real.verifyPassword(passwordHash, password);
    },
    burnPasswordCheck: async (password: string) => {
      checks.burn++;
      return real.burnPasswordCheck(password);
    },
  };
});

const FAILURES = 10;
const BURST = 150;
let t: TestApp;
beforeAll(async () => {
  // Behind a proxy every guess can claim an address of its own, so the per-address limit never stops a burst.
  t = await createTestApp({ TRUST_PROXY: 'true', LOGIN_FAILURES_PER_EMAIL: String(FAILURES) });
});
afterAll(() => t.close());

const post = (email: string, password: string, client: string, deviceId?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/login',
    remoteAddress: '192.168.0.1',
    headers: { 'x-forwarded-for': client, ...(deviceId ? { 'x-device-id': deviceId } : {}) },
    payload: { user: { email, password } },
  });
const tally = (codes: number[]) =>
  codes.reduce<Record<number, number>>((m, c) => {
    m[c] = (m[c] ?? 0) + 1;
    return m;
  }, {});

describe('a burst of concurrent wrong passwords', () => {
  it(`from ${BURST} addresses gets exactly LOGIN_FAILURES_PER_EMAIL password checks; the known device still signs in`, async () => {
    const u = await createUser(t, { password: 'the-right-password' });
    const device = randomBytes(16).toString('hex');
    expect((await post(u.email, u.password, '203.0.113.1', device)).statusCode).toBe(200);

    checks.verify = 0;
    const burst = Array.from({ length: BURST }, (_, i) => post(u.email, `guess-${i}`, `10.20.${i >> 8}.${i & 255}`));
    // The clinician at their own device, from an address never seen, in the middle of the burst.
    const clinician = post(u.email, u.password, '198.51.100.77', device);
    const codes = (await Promise.all(burst)).map((r) => r.statusCode);
    const own = await clinician;

    // No tolerance: the reservation is one UPSERT under the row's lock, on PGlite and on PostgreSQL alike.
    expect(tally(codes)).toEqual({ 401: FAILURES, 429: BURST - FAILURES });
    expect(checks.verify).toBe(FAILURES + 1); // the guesses allowed, and the clinician's own sign-in
    expect(own.statusCode).toBe(200);

    // The pause holds for unknown sources, the right password included, and not for the known device or address.
    checks.verify = 0;
    expect((await post(u.email, u.password, '198.51.100.78')).statusCode).toBe(429);
    expect(checks.verify).toBe(0);
    expect((await post(u.email, u.password, '198.51.100.79', device)).statusCode).toBe(200);
    expect((await post(u.email, u.password, '203.0.113.1')).statusCode).toBe(200);
  });

  it('against an e-mail without account is counted alike (the dummy check runs no more often)', async () => {
    const ghost = uniqueEmail('ghost');
    checks.burn = 0;
    const codes = (await Promise.all(Array.from({ length: BURST }, (_, i) => post(ghost, `guess-${i}`, `10.21.${i >> 8}.${i & 255}`)))).map(
      (r) => r.statusCode,
    );
    expect(tally(codes)).toEqual({ 401: FAILURES, 429: BURST - FAILURES });
    expect(checks.burn).toBe(FAILURES);
  });

  it('the right password gives back the slot it reserved: the count starts afresh', async () => {
    const u = await createUser(t, { password: 'the-right-password' });
    const guesses = async (n: number, net: number) => {
      const codes: number[] = [];
      for (let i = 0; i < n; i++) codes.push((await post(u.email, `guess-${i}`, `10.22.${net}.${i + 1}`)).statusCode);
      return codes;
    };
    expect(await guesses(FAILURES - 1, 0)).toEqual(Array<number>(FAILURES - 1).fill(401));
    // This attempt takes the last slot (and would pause the class were it wrong), then proves right.
    expect((await post(u.email, u.password, '10.22.1.1')).statusCode).toBe(200);
    expect(await guesses(FAILURES + 1, 2)).toEqual([...Array<number>(FAILURES).fill(401), 429]);
  });
});
