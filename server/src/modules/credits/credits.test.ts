import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../admin/commands.js';
import type { TextGenerator } from '../../ai/text-generator.js';
import { bearer, createOrganizationInvite, createUser, login, uniqueEmail } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let failNext = false;
const ai: TextGenerator = {
  info: { engine: 'openai', model: 'test', usesAi: true },
  async *write(req) {
    if (failNext) {
      failNext = false;
      throw new Error('provider down');
    }
    yield `# ${req.documentKind}\n\nwritten by the test model`;
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INITIAL_CREDITS: '2' }, { textGenerator: ai });
});
afterAll(() => t.close());

async function member() {
  const email = uniqueEmail('credits');
  const { organizationId } = await createOrganizationInvite(t, email, `Org ${email}`);
  // The factory does not grant: do what support's CLI does on creation.
  await runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: organizationId, amount: '2' });
  const u = await createUser(t, { email, organizationId, organizationRole: 'admin', name: 'Dr. Credit' });
  return { organizationId, headers: bearer(await login(t, u.email, u.password)) };
}

async function finishedSession(headers: Record<string, string>) {
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'Cough for a week.' } });
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
  await Promise.allSettled([...t.ctx.background]);
  return id;
}

const balance = async (headers: Record<string, string>) => (await t.app.inject({ method: 'GET', url: '/v1/credits', headers })).json().credits;
const regenerate = (headers: Record<string, string>, id: string, text: string) => {
  const boundary = '----credits';
  return t.app.inject({
    method: 'POST',
    url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${JSON.stringify({ text })}\r\n--${boundary}--\r\n`,
  });
};

describe('credits', () => {
  it('each AI generation debits the organization; with none left the call answers 402 and nothing is lost', async () => {
    const { headers } = await member();
    expect((await balance(headers)).balance).toBe(2);
    const id = await finishedSession(headers);
    expect((await balance(headers)).balance).toBe(1);
    expect((await regenerate(headers, id, 'Shorter.')).statusCode).toBe(202);
    await Promise.allSettled([...t.ctx.background]);
    expect((await balance(headers)).balance).toBe(0);

    const refused = await regenerate(headers, id, 'Even shorter.');
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe('insufficient_credits');
    const doc = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document;
    expect(doc.total_versions).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers })).json().transcription).toBe(
      'Cough for a week.',
    );

    const credits = await balance(headers);
    expect(credits.shared_with_organization).toBe(true);
    expect(credits.ledger.filter((r: { reason: string }) => r.reason === 'generation').map((r: { user_name: string }) => r.user_name)).toEqual([
      'Dr. Credit',
      'Dr. Credit',
    ]);
  });

  it('a consultation still ends without credits, and the document can be generated after a grant', async () => {
    const { headers, organizationId } = await member();
    await runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: organizationId, amount: '1' });
    // Spend everything.
    for (let i = 0; i < 3; i++) await finishedSession(headers);
    expect((await balance(headers)).balance).toBe(0);
    const id = await finishedSession(headers);
    const session = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers })).json().consultation_session;
    expect(session.status).toBe('finished');
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).statusCode).toBe(402);
    await runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: organizationId, amount: '5', note: 'invoice 42' });
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).statusCode).toBe(202);
  });

  it('a failed generation is refunded', async () => {
    const { headers } = await member();
    failNext = true;
    const id = await finishedSession(headers);
    const doc = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document;
    expect(doc.status).toBe('failed');
    expect((await balance(headers)).balance).toBe(2);
  });

  it('support grants credits by organization name or id; unknown names are refused', async () => {
    await expect(runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: 'No Such Clinic', amount: '5' })).rejects.toThrow(/No organization/);
    await expect(runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: 'x', amount: '-5' })).rejects.toThrow(/Usage/);
  });
});
