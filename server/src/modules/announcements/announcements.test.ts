import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, UsageError } from '../../admin/commands.js';
import { announcements } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('announcements', () => {
  it('support publishes in one language; clinicians see the running ones in theirs, newest first', async () => {
    await runCommand(t.ctx.db, t.ctx.config, 'publish-announcement', { language: 'pt', title: 'Modelos pessoais', body: 'Já pode guardar os seus modelos.' });
    const lines = await runCommand(t.ctx.db, t.ctx.config, 'publish-announcement', {
      language: 'pt',
      title: 'Catálogo',
      body: 'Novo catálogo de assistentes.',
      days: '7',
    });
    expect(lines[0]).toMatch(/^Announcement published in pt until \d{4}-\d{2}-\d{2}/);
    await runCommand(t.ctx.db, t.ctx.config, 'publish-announcement', { language: 'pt', title: 'Old news', body: 'Gone.' });
    await t.ctx.db
      .update(announcements)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(announcements.title, 'Old news'));

    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    const pt = (await t.app.inject({ method: 'GET', url: '/v1/announcements', headers: { ...headers, 'accept-language': 'pt' } })).json().announcements;
    expect(pt.map((a: { title: string }) => a.title)).toEqual(['Catálogo', 'Modelos pessoais']);
    const en = (await t.app.inject({ method: 'GET', url: '/v1/announcements', headers: { ...headers, 'accept-language': 'en' } })).json().announcements;
    expect(en).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/announcements' })).statusCode).toBe(401);
  });

  it('refuses a bad command', async () => {
    await expect(runCommand(t.ctx.db, t.ctx.config, 'publish-announcement', { language: 'fr', title: 'x', body: 'y' })).rejects.toBeInstanceOf(UsageError);
    await expect(runCommand(t.ctx.db, t.ctx.config, 'publish-announcement', { language: 'pt', title: '', body: 'y' })).rejects.toBeInstanceOf(UsageError);
  });
});
