import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOrganizationInvite, createUser, login, uniqueEmail } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
});
afterAll(() => t.close());

/** A pending invitation for a clinician who already has an account, signed in. */
async function invitedClinician() {
  const email = uniqueEmail('invited');
  const { token } = await createOrganizationInvite(t, email, 'Clínica Sul');
  const user = await createUser(t, { email });
  return { token, headers: bearer(await login(t, user.email, user.password)) };
}
const answer = (token: string, kind: 'accept' | 'reject', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${token}/${kind}`, headers });
const statusOf = async (token: string) => (await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` })).json().invitation.status;

describe('declining an invitation', () => {
  it('needs someone signed in: the link alone is not enough', async () => {
    const { token } = await invitedClinician();
    const res = await answer(token, 'reject');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
    expect(await statusOf(token)).toBe('pending');
  });

  it('by another account is refused with 403, as accepting is', async () => {
    const { token } = await invitedClinician();
    const other = await createUser(t);
    const otherHeaders = bearer(await login(t, other.email, other.password));
    for (const kind of ['reject', 'accept'] as const) {
      const res = await answer(token, kind, otherHeaders);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('invitation_email_mismatch');
    }
    expect(await statusOf(token)).toBe('pending');
  });

  it('by the invited clinician works once', async () => {
    const { token, headers } = await invitedClinician();
    const res = await answer(token, 'reject', headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().invitation).toMatchObject({ organization_name: 'Clínica Sul', status: 'rejected' });
    expect(await statusOf(token)).toBe('rejected');
    expect((await answer(token, 'reject', headers)).statusCode).toBe(409);
    expect((await answer(token, 'accept', headers)).statusCode).toBe(409);
  });

  it('a signed-out visitor still sees what the invitation is', async () => {
    const { token } = await invitedClinician();
    const res = await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().invitation).toMatchObject({ organization_name: 'Clínica Sul', status: 'pending', role: 'admin' });
  });
});
