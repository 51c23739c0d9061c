import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, usingPostgres, type TestApp } from '../test-support/test-app.js';

let a: TestApp;
let b: TestApp | undefined;
beforeAll(async () => {
  a = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '6' });
  // A second API process on the same PostgreSQL database; with PGlite one process is all there is.
  if (usingPostgres()) b = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '6' }, { sharingDatabaseOf: a });
});
afterAll(async () => {
  await b?.close();
  await a.close();
});

const login = (t: TestApp, ip: string, i: number) =>
  t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: ip, payload: { user: { email: `rl-${i}@clinic.test`, password: 'whatever' } } });

describe('rate limits shared through the database', () => {
  it('allows a client its requests per window across every process, not on each', async () => {
    const apps = b ? [a, b] : [a];
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await login(apps[i % apps.length]!, '10.9.0.1', i)).statusCode);
    expect(codes.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(codes.slice(6)).toEqual([429, 429]);
    // Another client, and the same client on another route, count apart.
    expect((await login(apps.at(-1)!, '10.9.0.2', 99)).statusCode).toBe(401);
    const signup = await a.app.inject({ method: 'POST', url: '/v1/signup', remoteAddress: '10.9.0.1', payload: {} });
    expect(signup.statusCode).not.toBe(429);
  });

  it('counts a burst of concurrent requests exactly', async () => {
    const apps = b ? [a, b] : [a];
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => login(apps[i % apps.length]!, '10.9.0.3', 100 + i).then((r) => r.statusCode)));
    expect(codes.filter((c) => c === 401)).toHaveLength(6);
    expect(codes.filter((c) => c === 429)).toHaveLength(14);
  });

  it('starts a new window once the last has passed, and stores no addresses', async () => {
    // At the limit, not over it: the next request is counted in the database.
    for (let i = 0; i < 6; i++) expect((await login(a, '10.9.0.4', 300 + i)).statusCode).toBe(401);
    await a.ctx.db.execute(sql`UPDATE rate_limit_windows SET resets_at = now() - interval '1 second'`);
    expect((await login(a, '10.9.0.4', 310)).statusCode).toBe(401);
    const rows = (await a.ctx.db.execute(sql`SELECT key, hits FROM rate_limit_windows`)) as unknown as { rows: { key: string; hits: number }[] };
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(rows.rows.some((r) => Number(r.hits) === 1)).toBe(true);
    expect(JSON.stringify(rows.rows)).not.toContain('10.9.0');
  });

  it('refuses a client over its limit without writing a row per refused request', async () => {
    for (let i = 0; i < 7; i++) await login(a, '10.9.0.5', 400 + i);
    const total = async () =>
      Number(((await a.ctx.db.execute(sql`SELECT sum(hits) AS n FROM rate_limit_windows`)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
    const before = await total();
    const codes = [];
    for (let i = 0; i < 10; i++) codes.push((await login(a, '10.9.0.5', 410 + i)).statusCode);
    expect(codes.every((c) => c === 429)).toBe(true);
    expect(await total()).toBe(before);
  });
});
