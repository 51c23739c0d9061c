/**
 * A token revoked on one API process is refused at once by the others, also on the polling paths that trust a
 * checked token for a moment (session-tokens.ts, LIVENESS_CACHE_MS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, usingPostgres, type TestApp } from '../test-support/test-app.js';

// Two processes share one database only on PostgreSQL: this runs in the PostgreSQL pass of the tests.
describe.runIf(usingPostgres())('revocation across API processes', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, { sharingDatabaseOf: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const status = (t: TestApp, token: string) => t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers: bearer(token) });

  it('a logout on one process ends the token on the other at once, though the other had just trusted it', async () => {
    const u = await createUser(a);
    const token = await login(a, u.email, u.password);
    expect((await status(b, token)).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'DELETE', url: '/v1/logout', headers: bearer(token) })).statusCode).toBeLessThan(300);
    // The event travels through PostgreSQL: a moment, well inside the 30-second trust it replaces.
    const deadline = Date.now() + 1000;
    let code = 0;
    while (Date.now() < deadline && (code = (await status(b, token)).statusCode) === 200) await new Promise((r) => setTimeout(r, 20));
    expect(code).toBe(401);
  });
});
