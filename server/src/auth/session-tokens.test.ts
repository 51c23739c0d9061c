/**
 * The status poll trusts a checked token from memory (session-tokens.ts, verifyCached): a revocation must end
 * that trust at once, also when it races the very check that would have put the token in memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../test-support/factories.js';
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
});
