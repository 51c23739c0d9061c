import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundSettled, bearer, createOrganizationInvite, createUser, lastMailToken, login, uniqueEmail } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { looksLikeSecret, redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it.each([
    ['/v1/organization_invitations/abc123/accept', '/v1/organization_invitations/[redacted]/accept'],
    ['/v1/organization_invitations/abc123/reject', '/v1/organization_invitations/[redacted]/reject'],
    ['/v1/organization_invitations/abc123', '/v1/organization_invitations/[redacted]'],
    ['/organization/invitations/short', '/organization/invitations/[redacted]'],
    ['/v1/reset_password/x', '/v1/reset_password/[redacted]'],
    ['/reset_password/x/', '/reset_password/[redacted]/'],
    ['/v1/confirm_email/x', '/v1/confirm_email/[redacted]'],
    ['/autologin/x', '/autologin/[redacted]'],
    ['/integration/a.b.c', '/integration/[redacted]'],
    // The router decodes escapes, so an encoded resource name is still recognised.
    ['/v1/%6Frganization_invitations/abc/accept', '/v1/%6Frganization_invitations/[redacted]/accept'],
    // Encoded slashes hide no segment, once or twice encoded: the written segment holding the token goes whole.
    ['/v1%2Fauto_login%2Fshort-token', '/[redacted]'],
    ['/v1%252Freset_password%252Fshort-token', '/[redacted]'],
    ['/v1/reset_password%2Fshort-token/x', '/v1/[redacted]/x'],
    ['/v1%2Freset_password/short-token', '/v1%2Freset_password/[redacted]'],
    // What is logged stays escaped as written.
    ['/v1/x/%00%3Cscript%3E', '/v1/x/%00%3Cscript%3E'],
    ['/v1//reset_password//abc', '/v1//reset_password//[redacted]'],
    ['/signup?ref=/organization/invitations/abc', '/signup?[query]'],
    // Safety net for paths nobody listed: long random segments and JWTs go wherever they appear.
    [`/v1/some_future_route/${'ab12'.repeat(16)}/go`, '/v1/some_future_route/[redacted]/go'],
    ['/v1/x/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl', '/v1/x/[redacted]'],
    ['/v1/x/Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFy', '/v1/x/[redacted]'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('keeps record ids and route words, which a log needs to be useful', () => {
    const id = randomUUID();
    expect(redactUrl(`/v1/consultation_sessions/${id}/audios`)).toBe(`/v1/consultation_sessions/${id}/audios`);
    expect(redactUrl('/v1/custom_document_requests_and_a_very_long_route_name')).toBe('/v1/custom_document_requests_and_a_very_long_route_name');
    expect(looksLikeSecret('assets')).toBe(false);
    expect(looksLikeSecret('7'.repeat(31))).toBe(false);
    expect(looksLikeSecret('7'.repeat(32))).toBe(true);
  });
});

describe('the captured log of every route that carries a token', () => {
  const INTEGRATION_KEY = 'integration-key-for-log-tests-0123456789';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ INTEGRATION_KEY, LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(() => t.close());

  it('never contains one of them', async () => {
    const secrets: string[] = [];
    const html = { accept: 'text/html' };

    // Organization invitations: shown, accepted, declined, by the invited user and by others, and in the signup link.
    const invitedEmail = uniqueEmail('inv');
    const { token: invitation } = await createOrganizationInvite(t, invitedEmail);
    const declinedEmail = uniqueEmail('dec');
    const { token: declined } = await createOrganizationInvite(t, declinedEmail);
    secrets.push(invitation, declined);
    const invited = await createUser(t, { email: invitedEmail });
    const decliner = await createUser(t, { email: declinedEmail });
    const invitedHeaders = bearer(await login(t, invited.email, invited.password));
    const declinerHeaders = bearer(await login(t, decliner.email, decliner.password));
    for (const token of [invitation, declined]) {
      await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` });
      await t.app.inject({ method: 'GET', url: `/v1/%6Frganization_invitations/${token}` });
      await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${token}/reject` });
      await t.app.inject({ method: 'GET', url: `/organization/invitations/${token}`, headers: html });
      await t.app.inject({ method: 'GET', url: `/signup?ref=/organization/invitations/${token}`, headers: html });
    }
    expect((await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${invitation}/accept`, headers: declinerHeaders })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${invitation}/accept`, headers: invitedHeaders })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${declined}/reject`, headers: declinerHeaders })).statusCode).toBe(200);

    // Password reset and e-mail confirmation links, used and reused, and their pages.
    const u = await createUser(t);
    await t.app.inject({ method: 'POST', url: '/v1/reset_password', payload: { email: u.email } });
    await backgroundSettled(t);
    const reset = lastMailToken(t, u.email);
    secrets.push(reset);
    for (let i = 0; i < 2; i++) {
      await t.app.inject({
        method: 'PATCH',
        url: `/v1/reset_password/${reset}`,
        payload: { password: 'Reset-Secret-1', password_confirmation: 'Reset-Secret-1' },
      });
    }
    await t.app.inject({ method: 'GET', url: `/reset_password/${reset}`, headers: html });
    const signupEmail = uniqueEmail('self');
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      payload: { user: { name: 'Log Test', email: signupEmail, password: 'Signup-Secret-1', language: 'en' } },
    });
    expect(signup.statusCode).toBe(202);
    secrets.push('Reset-Secret-1', 'Signup-Secret-1');
    await backgroundSettled(t);
    const confirm = lastMailToken(t, signupEmail);
    secrets.push(confirm);
    await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${confirm}` });
    await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${confirm}` });
    await t.app.inject({ method: 'GET', url: `/confirm_email/${confirm}`, headers: html });

    // Phone pairing and sign-in from other systems: tokens in bodies, and the pages that carry them in the path.
    const session = await login(t, u.email, 'Reset-Secret-1');
    secrets.push(session);
    const qr = (await t.app.inject({ method: 'POST', url: '/v1/qr_token', headers: bearer(session) })).json().token as string;
    secrets.push(qr);
    await t.app.inject({ method: 'GET', url: `/autologin/${qr}`, headers: html });
    await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token: qr } });
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ email: u.email, jti: randomUUID(), iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(INTEGRATION_KEY));
    secrets.push(jwt, jwt.split('.')[2]!);
    await t.app.inject({ method: 'GET', url: `/integration/${jwt}`, headers: html });
    await t.app.inject({ method: 'POST', url: '/v1/signed_token_login', payload: { token: jwt } });
    await t.app.inject({ method: 'POST', url: '/v1/signed_token_login', payload: { token: jwt } });

    // A route nobody listed yet, with a token in its path.
    const stray = 'c0ffee'.repeat(8);
    secrets.push(stray);
    await t.app.inject({ method: 'GET', url: `/v1/not_yet_a_route/${stray}` });

    const log = t.logs.join('');
    // The requests above were logged (so the absence below means something), with their tokens replaced.
    for (const line of [
      '/v1/organization_invitations/[redacted]/accept',
      '/v1/organization_invitations/[redacted]/reject',
      '/v1/reset_password/[redacted]',
      '/v1/confirm_email/[redacted]',
      '/autologin/[redacted]',
      '/integration/[redacted]',
      '/organization/invitations/[redacted]',
      '/v1/not_yet_a_route/[redacted]',
    ]) {
      expect(log).toContain(line);
    }
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
