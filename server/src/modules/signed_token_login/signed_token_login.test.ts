import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { usedIntegrationTokens } from '../../db/schema.js';
import { createUser } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const INTEGRATION_KEY = 'integration-key-for-tests-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INTEGRATION_KEY });
});
afterAll(() => t.close());

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A clinician whose address is proven (confirmed by mail, or invited to an organization). */
const confirmedUser = () => createUser(t, { emailConfirmedAt: new Date() });
/** A token as a record system makes it: jti, iat, exp two minutes on, unless the test says otherwise. */
function sign(claims: JWTPayload, opts: { key?: string; jti?: string | null; iat?: number | null; exp?: number | null } = {}) {
  const iat = opts.iat === undefined ? nowSeconds() : opts.iat;
  const exp = opts.exp === undefined ? nowSeconds() + 120 : opts.exp;
  const jti = opts.jti === undefined ? randomUUID() : opts.jti;
  return new SignJWT({ ...claims, ...(jti === null ? {} : { jti }), ...(iat === null ? {} : { iat }), ...(exp === null ? {} : { exp }) })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(opts.key ?? INTEGRATION_KEY));
}
let ip = 0;
const post = (token: string) => t.app.inject({ method: 'POST', url: '/v1/signed_token_login/', remoteAddress: `10.60.0.${++ip % 250}`, payload: { token } });

describe('POST /v1/signed_token_login', () => {
  it('never opens an account whose address was never proven: someone may have signed up with a clinician’s address first', async () => {
    const squatter = await createUser(t, { emailConfirmedAt: null });
    const res = await post(await sign({ email: squatter.email }));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('email_not_confirmed');
    expect(res.headers.authorization).toBeUndefined();
  });

  it('signs in the clinician named by a fresh token signed with the integration key', async () => {
    const u = await confirmedUser();
    const res = await post(await sign({ email: u.email }));
    expect(res.statusCode).toBe(200);
    expect(res.json().d_user.id).toBe(u.id);
    expect(res.headers.authorization).toMatch(/^Bearer /);
    const bySub = await post(await sign({ sub: u.email }));
    expect(bySub.statusCode).toBe(200);
  });

  it('accepts each token once: a replay is refused, even after the memory of this process is gone', async () => {
    const u = await confirmedUser();
    const token = await sign({ email: u.email });
    expect((await post(token)).statusCode).toBe(200);
    const replay = await post(token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('token_already_used');
    expect(replay.headers.authorization).toBeUndefined();
    // The spent jti is in the database (shared by every process, kept across restarts), not the jti itself.
    const rows = await t.ctx.db.select().from(usedIntegrationTokens);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti);
  });

  it('the same jti in another token is a replay too', async () => {
    const u = await confirmedUser();
    const jti = randomUUID();
    expect((await post(await sign({ email: u.email }, { jti }))).statusCode).toBe(200);
    expect((await post(await sign({ email: u.email }, { jti, iat: nowSeconds() - 1 }))).json().error.code).toBe('token_already_used');
  });

  it('refuses a token valid for ten years, or for more than 5 minutes, or issued in the future', async () => {
    const u = await confirmedUser();
    const tenYears = await post(await sign({ email: u.email }, { exp: nowSeconds() + 10 * 365 * 24 * 3600 }));
    expect(tenYears.statusCode).toBe(401);
    expect(tenYears.json().error.code).toBe('token_lifetime_too_long');
    for (const opts of [
      { iat: nowSeconds(), exp: nowSeconds() + 301 },
      // An old iat does not make a far exp acceptable.
      { iat: nowSeconds() - 3600, exp: nowSeconds() + 3600 },
      { iat: nowSeconds() + 600, exp: nowSeconds() + 700 },
    ]) {
      const res = await post(await sign({ email: u.email }, opts));
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('token_lifetime_too_long');
    }
    // Exactly five minutes, and a few seconds of clock difference, are fine.
    expect((await post(await sign({ email: u.email }, { iat: nowSeconds() + 5, exp: nowSeconds() + 300 }))).statusCode).toBe(200);
  });

  it('refuses a token without jti, iat or exp', async () => {
    const u = await confirmedUser();
    for (const opts of [{ jti: null }, { iat: null }, { exp: null }, { jti: '' }]) {
      const res = await post(await sign({ email: u.email }, opts));
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('token_claims_missing');
    }
    const noUser = await post(await sign({}));
    expect(noUser.json().error.code).toBe('token_claims_missing');
  });

  it('refuses another key, an expired token and an unknown user with the same answer', async () => {
    const u = await confirmedUser();
    for (const token of [
      await sign({ email: u.email }, { key: 'another-key-another-key-another-key' }),
      // Another key tells nothing more, even about claims it lacks.
      await sign({ email: u.email }, { key: 'another-key-another-key-another-key', jti: null }),
      await sign({ email: u.email }, { iat: nowSeconds() - 200, exp: nowSeconds() - 60 }),
      await sign({ email: 'nobody@clinic.test' }),
      'not-a-jwt-at-all',
    ]) {
      const res = await post(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_or_expired_token');
    }
  });

  it('forgets spent tokens once they have expired', async () => {
    const u = await confirmedUser();
    await t.ctx.db.insert(usedIntegrationTokens).values({ jtiHash: 'stale'.padEnd(64, '0'), expiresAt: new Date(Date.now() - 1000) });
    expect((await post(await sign({ email: u.email }))).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(usedIntegrationTokens);
    expect(rows.some((r) => r.jtiHash.startsWith('stale'))).toBe(false);
  });
});

describe('INTEGRATION_KEY', () => {
  it('must be at least 32 characters, or the server does not start; unset or empty turns the route off', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-intkey-'));
    try {
      for (const short of ['x', 'a'.repeat(31)]) {
        const start = () => loadConfig({ DATA_DIR: dir, INTEGRATION_KEY: short });
        expect(start).toThrow(ConfigError);
        expect(start).toThrow(/INTEGRATION_KEY must be at least 32 characters/);
      }
      expect(loadConfig({ DATA_DIR: dir, INTEGRATION_KEY: 'a'.repeat(32) }).integrationKey).toBe('a'.repeat(32));
      expect(loadConfig({ DATA_DIR: dir, INTEGRATION_KEY: '' }).integrationKey).toBeUndefined();
      expect(loadConfig({ DATA_DIR: dir }).integrationKey).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
