import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationInvitations, organizations } from '../../db/schema.js';
import { bearer, createUser, getUserRow, lastMailToken, login, uniqueEmail } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
});
afterAll(() => t.close());

async function organization(name = 'Clínica') {
  const [org] = await t.ctx.db.insert(organizations).values({ name }).returning();
  return org!.id;
}

async function person(organizationId: string | null, role: 'admin' | 'member' | null, extra: { language?: string } = {}) {
  const u = await createUser(t, { organizationId, organizationRole: role, name: `Dr. ${role ?? 'stranger'}`, ...extra });
  return { ...u, headers: bearer(await login(t, u.email, u.password)) };
}

type Who = 'admin' | 'member' | 'other' | 'stranger';

/** A fresh organization with an admin, a member, an admin of another organization and a user without one. */
async function cast() {
  const org = await organization();
  const otherOrg = await organization('Outra');
  const admin = await person(org, 'admin');
  const member = await person(org, 'member');
  const other = await person(otherOrg, 'admin');
  const stranger = await person(null, null);
  return { org, admin, member, other, stranger, as: { admin, member, other, stranger } as Record<Who, Awaited<ReturnType<typeof person>>> };
}

describe('organization authorization matrix', () => {
  it('every call as admin, member, member of another organization and stranger', async () => {
    const c = await cast();
    const base = `/v1/organizations/${c.org}`;
    const pendingInvitation = async () => {
      const res = await t.app.inject({ method: 'POST', url: `${base}/invitations`, headers: c.admin.headers, payload: { emails: [uniqueEmail('inv')] } });
      return res.json().invitations[0].id as string;
    };
    const throwaway = async () => (await person(c.org, 'member')).id;

    type Call = {
      name: string;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: string | (() => Promise<string>);
      payload?: unknown;
      allowed: Partial<Record<Who, number>>;
    };
    const calls: Call[] = [
      { name: 'show', method: 'GET', url: base, allowed: { admin: 200, member: 200 } },
      { name: 'list invitations', method: 'GET', url: `${base}/invitations`, allowed: { admin: 200 } },
      { name: 'invite', method: 'POST', url: `${base}/invitations`, payload: { emails: [uniqueEmail('x')] }, allowed: { admin: 201 } },
      { name: 'resend', method: 'POST', url: async () => `${base}/invitations/${await pendingInvitation()}/resend`, allowed: { admin: 200 } },
      { name: 'revoke', method: 'DELETE', url: async () => `${base}/invitations/${await pendingInvitation()}`, allowed: { admin: 204 } },
      { name: 'change role', method: 'PUT', url: async () => `${base}/members/${await throwaway()}`, payload: { role: 'admin' }, allowed: { admin: 200 } },
      { name: 'remove member', method: 'DELETE', url: async () => `${base}/members/${await throwaway()}`, allowed: { admin: 204 } },
      { name: "the member's history", method: 'GET', url: `${base}/members/${c.member.id}/history`, allowed: { admin: 200, member: 200 } },
      { name: "the admin's history", method: 'GET', url: `${base}/members/${c.admin.id}/history`, allowed: { admin: 200 } },
    ];
    const denied: Record<Who, number> = { admin: 403, member: 403, other: 404, stranger: 404 };
    for (const call of calls) {
      for (const who of ['admin', 'member', 'other', 'stranger'] as Who[]) {
        const url = typeof call.url === 'string' ? call.url : await call.url();
        const res = await t.app.inject({ method: call.method, url, headers: c.as[who].headers, ...(call.payload ? { payload: call.payload } : {}) });
        expect(res.statusCode, `${call.name} as ${who}: ${res.body}`).toBe(call.allowed[who] ?? denied[who]);
      }
    }
    // Leaving: the only admin cannot; the member can; strangers are not members of it.
    const leave = (who: Who) => t.app.inject({ method: 'POST', url: `${base}/leave`, headers: c.as[who].headers });
    expect((await leave('other')).statusCode).toBe(404);
    expect((await leave('stranger')).statusCode).toBe(404);
    expect((await leave('member')).statusCode).toBe(204);
    // The "change role" call above promoted a throwaway member to admin, so this admin is not the only one.
    expect((await leave('admin')).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `${base}/invitations` })).statusCode).toBe(401);
  });
});

describe('organization rules', () => {
  it('the only admin cannot leave, be demoted or be removed; after promoting someone they can leave', async () => {
    const org = await organization();
    const admin = await person(org, 'admin');
    const member = await person(org, 'member');
    const base = `/v1/organizations/${org}`;
    const leave = await t.app.inject({ method: 'POST', url: `${base}/leave`, headers: admin.headers });
    expect(leave.statusCode).toBe(409);
    expect(leave.json().error).toMatchObject({ code: 'only_admin', message: "You can't leave the organization (only admin)" });
    expect((await t.app.inject({ method: 'PUT', url: `${base}/members/${admin.id}`, headers: admin.headers, payload: { role: 'member' } })).statusCode).toBe(
      409,
    );
    expect((await t.app.inject({ method: 'DELETE', url: `${base}/members/${admin.id}`, headers: admin.headers })).statusCode).toBe(400);
    const promoted = await t.app.inject({ method: 'PUT', url: `${base}/members/${member.id}`, headers: admin.headers, payload: { role: 'admin' } });
    expect(promoted.json().member).toMatchObject({ id: member.id, role: 'admin' });
    expect((await t.app.inject({ method: 'POST', url: `${base}/leave`, headers: admin.headers })).statusCode).toBe(204);
    expect(await getUserRow(t, admin.id)).toMatchObject({ organizationId: null, organizationRole: null });
    const shown = await t.app.inject({ method: 'GET', url: base, headers: member.headers });
    expect(shown.json().organization.members.map((m: { id: string }) => m.id)).toEqual([member.id]);
    expect((await t.app.inject({ method: 'PUT', url: `${base}/members/${member.id}`, headers: member.headers, payload: { role: 'boss' } })).statusCode).toBe(
      400,
    );
  });

  it('invites checked addresses, in the invitee’s language, and reports who is already in or invited', async () => {
    const org = await organization('Clínica Azul');
    const admin = await person(org, 'admin');
    const member = await person(org, 'member');
    const base = `/v1/organizations/${org}/invitations`;
    const bad = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: { emails: ['ok@clinic.test', 'not-an-email'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ message: 'Invalid email', fields: { 'emails.1': 'invalid_email' } });
    expect(t.mails.some((m) => m.to === 'ok@clinic.test')).toBe(false);

    const german = await createUser(t, { language: 'de' });
    const fresh = uniqueEmail('new');
    const res = await t.app.inject({
      method: 'POST',
      url: base,
      headers: admin.headers,
      payload: { emails: [german.email, fresh, member.email, fresh.toUpperCase()] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().results).toEqual([
      { email: german.email, result: 'invited' },
      { email: fresh, result: 'invited' },
      { email: member.email, result: 'already_member' },
    ]);
    expect(t.mails.find((m) => m.to === german.email)?.subject).toBe('Einladung in die Organisation Clínica Azul');
    expect(t.mails.find((m) => m.to === fresh)?.subject).toBe('Invitation to the organization Clínica Azul');
    expect(t.mails.find((m) => m.to === fresh)?.link).toMatch(/\/organization\/invitations\/[0-9a-f]+$/);
    const again = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: { emails: [fresh] } });
    expect(again.json().results).toEqual([{ email: fresh, result: 'already_invited' }]);
    const list = again.json().invitations.filter((i: { email: string }) => i.email === fresh);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'pending', role: 'member' });
    expect(Date.parse(list[0].invited_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('answering an invitation', () => {
  async function invite(email: string, language?: string) {
    const org = await organization('Clínica Verde');
    const admin = await person(org, 'admin', language ? { language } : {});
    await t.app.inject({ method: 'POST', url: `/v1/organizations/${org}/invitations`, headers: admin.headers, payload: { emails: [email] } });
    return { org, admin, token: lastMailToken(t, email) };
  }

  it('a signed-in clinician with the invited address accepts and becomes a member; a second answer is refused', async () => {
    const user = await person(null, null);
    const { org, token } = await invite(user.email);
    const shown = await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` });
    expect(shown.json().invitation).toMatchObject({ organization_name: 'Clínica Verde', email: user.email, status: 'pending' });
    const accepted = await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${token}/accept`, headers: user.headers });
    expect(accepted.statusCode).toBe(200);
    expect(await getUserRow(t, user.id)).toMatchObject({ organizationId: org, organizationRole: 'member' });
    const twice = await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${token}/reject`, headers: user.headers });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('You have already responded to this invitation');
    expect((await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` })).json().invitation.status).toBe('accepted');
  });

  it('another address can neither accept nor reject it; expired links say so', async () => {
    const invited = uniqueEmail('invited');
    const { token } = await invite(invited);
    const intruder = await person(null, null);
    const wrong = await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${token}/accept`, headers: intruder.headers });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('invitation_email_mismatch');
    const declined = await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${token}/reject`, headers: intruder.headers });
    expect(declined.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` })).json().invitation.status).toBe('pending');

    const late = await person(null, null);
    const second = await invite(late.email);
    await t.ctx.db
      .update(organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizationInvitations.email, late.email));
    const expired = await t.app.inject({ method: 'POST', url: `/v1/organization_invitations/${second.token}/reject`, headers: late.headers });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('invitation_expired');
    expect((await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${second.token}` })).json().invitation.status).toBe('expired');
    expect((await t.app.inject({ method: 'GET', url: '/v1/organization_invitations/0000000000000000' })).statusCode).toBe(404);
  });

  it('resending gives a new link and retires the old one; revoking makes the link unknown', async () => {
    const email = uniqueEmail('resend');
    const { org, admin, token } = await invite(email);
    const [inv] = await t.ctx.db.select().from(organizationInvitations).where(eq(organizationInvitations.email, email));
    const resent = await t.app.inject({ method: 'POST', url: `/v1/organizations/${org}/invitations/${inv!.id}/resend`, headers: admin.headers });
    expect(resent.statusCode).toBe(200);
    const newToken = lastMailToken(t, email);
    expect(newToken).not.toBe(token);
    expect((await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${token}` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/organizations/${org}/invitations/${resent.json().invitation.id}`, headers: admin.headers })).statusCode,
    ).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/v1/organization_invitations/${newToken}` })).statusCode).toBe(404);
  });
});

describe('history', () => {
  it('an admin sees what a member did, not what was said; the member sees their own text', async () => {
    const org = await organization();
    const admin = await person(org, 'admin');
    const member = await person(org, 'member');
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/consultation_sessions',
        headers: member.headers,
        payload: { consultation_type_id: 'general_consultation' },
      })
    ).json().consultation_session.id;
    await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${id}/transcription`,
      headers: member.headers,
      payload: { transcription: 'Patient reports chest pain.' },
    });
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: member.headers });
    const url = `/v1/organizations/${org}/members/${member.id}/history`;
    const byAdmin = (await t.app.inject({ method: 'GET', url, headers: admin.headers })).json();
    expect(byAdmin.consultation_sessions).toHaveLength(1);
    expect(byAdmin.consultation_sessions[0]).toMatchObject({ id, consultation_type_id: 'general_consultation', data_kept: 'all' });
    expect(JSON.stringify(byAdmin)).not.toContain('chest pain');
    const own = (await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/history', headers: member.headers })).json();
    expect(own.consultation_sessions[0].transcript_excerpt).toBe('Patient reports chest pain.');
    // A page at a time, as the clinician's own history: the next page after the last row shown is empty.
    const last = byAdmin.consultation_sessions[0] as { id: string; finished_at: string };
    const next = await t.app.inject({
      method: 'GET',
      url: `${url}?before=${encodeURIComponent(last.finished_at)}&before_id=${last.id}`,
      headers: admin.headers,
    });
    expect(next.statusCode).toBe(200);
    expect(next.json().consultation_sessions).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `${url}?before=yesterday`, headers: admin.headers })).statusCode).toBe(400);
  });
});

describe('support', () => {
  it('mails the support address with who is asking', async () => {
    const u = await person(null, null);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/support',
      headers: u.headers,
      payload: { subject: 'More credits', message: 'We need 500 more credits.' },
    });
    expect(res.statusCode).toBe(202);
    const mail = t.mails.at(-1)!;
    expect(mail).toMatchObject({ to: t.ctx.config.supportEmail, subject: '[Support] More credits' });
    expect(mail.text).toContain(u.email);
    expect(mail.text).toContain('We need 500 more credits.');
    expect((await t.app.inject({ method: 'POST', url: '/v1/support', headers: u.headers, payload: { subject: 'x', message: 'short' } })).statusCode).toBe(400);
  });
});
