import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, organizations } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t.close());

type Person = { id: string; headers: Record<string, string> };
async function clinic() {
  const [org] = await t.ctx.db.insert(organizations).values({ name: 'Clínica' }).returning();
  const person = async (role: 'admin' | 'member'): Promise<Person> => {
    const u = await createUser(t, { organizationId: org!.id, organizationRole: role });
    return { id: u.id, headers: bearer(await login(t, u.email, u.password)) };
  };
  return { id: org!.id, admin: await person('admin'), member: await person('member') };
}
const setRule = (who: Person, orgId: string, rule: unknown) =>
  t.app.inject({ method: 'PUT', url: `/v1/organizations/${orgId}/recording_consent`, headers: who.headers, payload: { recording_consent: rule } });
async function begin(who: Person) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/consultation_sessions',
    headers: who.headers,
    payload: { consultation_type_id: 'general_consultation', force: true },
  });
  return res.json().consultation_session.id as string;
}
const claim = (who: Person, id: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/v1/consultation_sessions/${id}/recording`,
    headers: { ...who.headers, 'x-device-id': 'device-one-1234' },
    payload: { platform: 'test' },
  });
const consent = (who: Person, id: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/consent`, headers: who.headers, payload });

describe("the patient's consent to recording", () => {
  it('off by default: recording starts without it', async () => {
    const org = await clinic();
    const id = await begin(org.member);
    const session = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers: org.member.headers })).json().consultation_session;
    expect(session.consent).toEqual({ required: 'off', method: null, given_at: null });
    expect((await claim(org.member, id)).statusCode).toBe(200);
  });

  it('asked by the organization: no recording before it, kept with the consultation and in the audit log', async () => {
    const org = await clinic();
    // Only an admin sets the rule, to one of the three.
    expect((await setRule(org.member, org.id, 'patient')).statusCode).toBe(403);
    expect((await setRule(org.admin, org.id, 'always')).statusCode).toBe(400);
    expect((await setRule(org.admin, org.id, 'patient')).json()).toEqual({ recording_consent: 'patient' });
    const view = await t.app.inject({ method: 'GET', url: `/v1/organizations/${org.id}`, headers: org.member.headers });
    expect(view.json().organization.recording_consent).toBe('patient');

    const id = await begin(org.member);
    const refused = await claim(org.member, id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('consent_required');

    // Another way than the organization's is refused; bad input is a 400; another clinician sees nothing.
    expect((await consent(org.member, id, { method: 'clinician' })).json().error.code).toBe('consent_method_mismatch');
    expect((await consent(org.member, id, { method: 'nod' })).statusCode).toBe(400);
    expect((await consent(org.member, id, { method: 'patient', given_at: 'yesterday' })).statusCode).toBe(400);
    expect((await consent(org.admin, id, { method: 'patient' })).statusCode).toBe(404);

    // Given offline a moment ago: its time is kept; a time from the future is brought back to now.
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const given = await consent(org.member, id, { method: 'patient', given_at: future });
    expect(given.statusCode).toBe(200);
    const kept = given.json().consultation_session.consent;
    expect(kept).toMatchObject({ required: 'patient', method: 'patient' });
    expect(Date.parse(kept.given_at)).toBeLessThanOrEqual(Date.now());
    // The first consent stands.
    const again = await consent(org.member, id, { method: 'patient' });
    expect(again.json().consultation_session.consent.given_at).toBe(kept.given_at);
    expect((await claim(org.member, id)).statusCode).toBe(200);

    await until(
      'consent audited',
      () =>
        t.ctx.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.actorUserId, org.member.id), eq(auditEvents.resourceId, id))),
      (rows) => rows.some((r) => r.action === 'update' && r.outcome === 'success' && r.statusCode === 200),
    );

    // A consultation keeps the rule it began under.
    expect((await setRule(org.admin, org.id, 'off')).statusCode).toBe(200);
    const progress = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress`, headers: org.member.headers });
    expect(progress.json().consultation_progress.consent.required).toBe('patient');
  });
});
