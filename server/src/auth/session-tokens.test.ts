/**
 * The status poll trusts a checked token from memory (session-tokens.ts, verifyCached): a revocation must end
 * that trust at once, also when it races the very check that would have put the token in memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('trusted session tokens', () => {
  it('are refused at once after a revocation, however often they were checked before', async () => {
    const u = await createUser(t);
    const token = await t.ctx.sessions.issue(u.id);
    for (let i = 0; i < 3; i++) expect(await t.ctx.sessions.verifyCached(token)).toMatchObject({ userId: u.id });
    const { sessionId } = (await t.ctx.sessions.verifyCached(token))!;
    await t.ctx.sessions.revoke(sessionId);
    expect(await t.ctx.sessions.verifyCached(token)).toBeUndefined();
  });

  it('a revocation racing the first check never leaves the token trusted', async () => {
    for (let round = 0; round < 10; round++) {
      const u = await createUser(t);
      const token = await t.ctx.sessions.issue(u.id);
      const claims = await t.ctx.sessions.verify(token);
      const checking = t.ctx.sessions.verifyCached(token);
      const revoking = t.ctx.sessions.revoke(claims!.sessionId);
      await Promise.all([checking, revoking]);
      expect(await t.ctx.sessions.verifyCached(token)).toBeUndefined();
    }
  });

  it('refuse a token whose signature or session is not ours, without keeping it', async () => {
    const u = await createUser(t);
    const token = await t.ctx.sessions.issue(u.id);
    const [head, body] = token.split('.');
    expect(await t.ctx.sessions.verifyCached(`${head}.${body}.forged`)).toBeUndefined();
    expect(await t.ctx.sessions.verifyCached('not-a-token')).toBeUndefined();
  });

  it('leave no log line per poll when answered, and one at warn when refused', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const poll = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers });
    const before = t.logs.length;
    for (let i = 0; i < 5; i++) expect((await poll(bearer(token))).statusCode).toBe(200);
    expect(t.logs.slice(before).filter((l) => l.includes('active/status'))).toEqual([]);
    expect((await poll(bearer('stolen.or.revoked'))).statusCode).toBe(401);
    const refused = t.logs.slice(before).map((l) => JSON.parse(l) as { level: number; msg: string; statusCode?: number });
    expect(refused).toEqual([expect.objectContaining({ level: 40, msg: 'poll refused', statusCode: 401 })]);
  });
});
