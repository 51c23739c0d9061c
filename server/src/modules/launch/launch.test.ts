/**
 * A launch from the record system (SMART App Launch 2, EHR launch) against the FHIR test server acting as the
 * record system and its authorization server: the browser's redirects are followed by hand.
 */
import type { DocumentReference } from '@medplum/fhirtypes';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, consultationSessions, loginBackoff, organizationFhirEndpoints, organizations, recordSystemIdentities, users } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { fhirErrors, startFhirTestServer, type FhirTestServer, type IdTokenChange } from '../../test-support/fhir-test-server.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';

let t: TestApp;
let fhir: FhirTestServer;
beforeAll(async () => {
  t = await createTestApp({ FHIR_ALLOW_PRIVATE_NETWORKS: 'true', LOGIN_RATE_LIMIT_PER_MINUTE: '100', LOGIN_FAILURES_PER_EMAIL: '5' });
  fhir = await startFhirTestServer();
}, 120_000);
afterAll(async () => {
  await fhir.close();
  await t.close();
});

const CLIENT = 'consultation-notes-launch';
const callback = () => `${t.ctx.config.publicUrl}/launch/callback`;

async function organizationWithRecordSystem(name: string, launchClientId: string | null = CLIENT) {
  const [org] = await t.ctx.db.insert(organizations).values({ name }).returning();
  const admin = await createUser(t, { name: 'Admin', organizationId: org!.id, organizationRole: 'admin' });
  const headers = bearer(await login(t, admin.email, admin.password));
  fhir.acceptToken(`push-${org!.id}`);
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/v1/organizations/${org!.id}/fhir_endpoint`,
    headers,
    payload: { base_url: fhir.base, auth: 'bearer', token: `push-${org!.id}`, ...(launchClientId ? { launch_client_id: launchClientId } : {}) },
  });
  expect(saved.statusCode).toBe(200);
  return { id: org!.id, settings: saved.json().fhir_endpoint };
}

/** The record system opens the organization's launch address; the browser follows to its authorization server and back. */
/** `remoteAddress`: the browser's, for tests making more launches than one browser may in a minute. */
async function launch(organizationId: string, launchId: string, iss = fhir.base, remoteAddress?: string) {
  const start = await t.app.inject({ method: 'GET', url: `/launch/${organizationId}?iss=${encodeURIComponent(iss)}&launch=${launchId}`, remoteAddress });
  expect(start.statusCode).toBe(302);
  const authorize = String(start.headers.location);
  if (!authorize.startsWith(fhir.base.replace('/fhir', ''))) return { landing: authorize };
  // The browser's nonce cookie, sent back on the return.
  const nonce = String(start.headers['set-cookie']).split(';')[0]!;
  const back = await fetch(authorize, { redirect: 'manual' });
  expect(back.status).toBe(302);
  const returned = new URL(back.headers.get('location')!);
  expect(`${returned.origin}${returned.pathname}`).toBe(callback());
  const done = await t.app.inject({ method: 'GET', url: `${returned.pathname}${returned.search}`, headers: { cookie: nonce }, remoteAddress });
  expect(done.statusCode).toBe(302);
  const cookies = ([] as string[]).concat(done.headers['set-cookie'] ?? []);
  const handover = cookies.find((c) => c.startsWith('cn_launch_session=') && !c.startsWith('cn_launch_session=;'))?.split(';')[0];
  return { landing: String(done.headers.location), returned, nonce, handover, cookies };
}
/** The link request's cookie a launch left for an account that existed before. */
const linkCookieOf = (launched: { cookies?: string[] }) => {
  const cookie = launched.cookies?.find((c) => c.startsWith('cn_launch_link='));
  if (!cookie) throw new Error('no link request');
  return cookie;
};
const failure = (landing: string) => new URL(landing).searchParams.get('reason');
/** The app's /launched page spends the hand-over cookie for a session. */
const session = (handover: string | undefined) => t.app.inject({ method: 'POST', url: '/v1/launch_session', headers: handover ? { cookie: handover } : {} });

describe('launch from the record system (SMART App Launch)', () => {
  it('a clinician new to the app gets an account in the organization, the consultation for the patient, and the push names the patient', async () => {
    const org = await organizationWithRecordSystem('Hospital da Luz');
    expect(org.settings).toMatchObject({ launch_client_id: CLIENT, launch_url: `${t.ctx.config.publicUrl}/launch/${org.id}`, redirect_url: callback() });
    fhir.registerLaunchClient(CLIENT, callback());
    fhir.registerLaunch('launch-1', { patient: 'pat-123', encounter: 'enc-9', email: 'Ines.Faria@Hospital.test', name: 'Dra. Inês\u202e Faria' });
    // The patient's name, read from the record system with the launch's token, labels the consultation.
    fhir.addPatient({ resourceType: 'Patient', id: 'pat-123', name: [{ use: 'official', given: ['Maria', 'José'], family: 'Sousa\u202e' }] });

    const { landing, handover } = await launch(org.id, 'launch-1');
    const request = fhir.authorizations.at(-1)!;
    expect(request).toMatchObject({
      response_type: 'code',
      client_id: CLIENT,
      redirect_uri: callback(),
      launch: 'launch-1',
      aud: fhir.base,
      code_challenge_method: 'S256',
    });
    expect(request.scope!.split(' ')).toEqual(expect.arrayContaining(['launch', 'openid', 'fhirUser']));
    // No token in any address: the browser that went through the launch holds it in an HttpOnly cookie.
    expect(landing).toBe(`${t.ctx.config.publicUrl}/launched`);
    expect(handover).toMatch(/^cn_launch_session=[0-9a-f]{64}$/);

    const signed = await session(handover);
    expect(signed.statusCode).toBe(200);
    expect(signed.json().d_user).toMatchObject({ email: 'ines.faria@hospital.test', name: 'Dra. Inês Faria' });
    expect((await session(handover)).statusCode).toBe(401);
    expect((await session(undefined)).statusCode).toBe(401);
    const [ines] = await t.ctx.db.select().from(users).where(eq(users.email, 'ines.faria@hospital.test'));
    // Member, not admin; the address not taken as confirmed on the record system's word.
    expect(ines).toMatchObject({ organizationId: org.id, organizationRole: 'member', emailConfirmedAt: null });
    const headers = { authorization: String(signed.headers.authorization) };

    const active = (await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json();
    expect(active.active).toBe(true);
    const [row] = await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, active.id));
    expect(row).toMatchObject({ fhirPatientId: 'pat-123', fhirEncounterId: 'enc-9', organizationId: org.id, patientLabel: 'Maria José Sousa' });

    // In the audit log as the clinician's: created by the launch, read when launched again.
    await t.app.auditLog.flush();
    const opened = () => t.ctx.db.select().from(auditEvents).where(eq(auditEvents.resourceId, active.id)).orderBy(asc(auditEvents.id));
    expect((await opened()).map((e) => [e.action, e.resourceType, e.actorUserId])).toEqual([['create', 'consultation_session', ines!.id]]);

    // Launched again (the same record system user) for the same patient and encounter: the same consultation.
    fhir.registerLaunch('launch-2', { patient: 'pat-123', encounter: 'enc-9', email: 'Ines.Faria@Hospital.test' });
    expect((await session((await launch(org.id, 'launch-2')).handover)).json().d_user.email).toBe('ines.faria@hospital.test');
    expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json().id).toBe(active.id);
    await t.app.auditLog.flush();
    expect((await opened()).filter((e) => e.actorKind === 'user' && e.actorUserId === ines!.id).map((e) => e.action)).toContain('read');

    // Its documents go to the record with the patient and the encounter named: no further choice.
    await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${active.id}/transcription`,
      headers,
      payload: { transcription: 'Dry cough for three days, no fever.' },
    });
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${active.id}/finish`, headers });
    await until(
      'notes written',
      async () =>
        (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${active.id}/generated_documents/main`, headers })).json().generated_document
          ?.status,
      (s) => s === 'done',
    );
    const pushed = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${active.id}/fhir_push`, headers });
    expect(pushed.statusCode).toBe(200);
    const filed = (fhir.stored.get('DocumentReference') as DocumentReference[]).at(-1)!;
    expect(filed.subject).toEqual({ reference: 'Patient/pat-123', type: 'Patient' });
    expect(filed.context?.encounter).toEqual([{ reference: 'Encounter/enc-9', type: 'Encounter' }]);
    expect(fhirErrors(filed)).toEqual([]);

    // A new clinician named by their Practitioner resource (fhirUser) gets an account in the organization.
    fhir.addPractitioner({
      resourceType: 'Practitioner',
      id: 'pr-7',
      name: [{ given: ['Rui'], family: 'Costa' }],
      telecom: [{ system: 'email', value: 'rui.costa@hospital.test' }],
    });
    fhir.registerLaunch('launch-4', { patient: 'pat-2', fhirUser: 'Practitioner/pr-7' });
    expect((await launch(org.id, 'launch-4')).landing).toMatch(/\/launched$/);
    const [rui] = await t.ctx.db.select().from(users).where(eq(users.email, 'rui.costa@hospital.test'));
    expect(rui).toMatchObject({ name: 'Rui Costa', organizationId: org.id, organizationRole: 'member' });
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('links an account that existed before only with its password, then signs it in from the record system at once', async () => {
    const org = await organizationWithRecordSystem('Clínica Antiga');
    fhir.registerLaunchClient(CLIENT, callback());
    const clinician = await createUser(t, { name: 'Dra. Sofia Reis', organizationId: org.id, organizationRole: 'member' });
    fhir.registerLaunch('link-1', { patient: 'pat-70', encounter: 'enc-70', email: clinician.email.toUpperCase() });
    const asked = await launch(org.id, 'link-1');
    expect(asked.landing).toBe(`${t.ctx.config.publicUrl}/launch_link`);
    const cookie = linkCookieOf(asked).split(';')[0]!;
    const linkWith = (password: string) => t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie }, payload: { password } });
    expect((await linkWith('wrong')).json().error.code).toBe('invalid_credentials');
    expect((await t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie }, payload: {} })).statusCode).toBe(400);
    const linked = await linkWith(clinician.password);
    expect(linked.statusCode).toBe(200);
    expect(linked.json().d_user.email).toBe(clinician.email);
    expect(String(linked.headers['set-cookie'])).toMatch(/cn_launch_link=; Path=\/v1\/launch_link; Max-Age=0/);
    // Spent: the same cookie links nothing again.
    expect((await linkWith(clinician.password)).statusCode).toBe(401);
    const headers = { authorization: String(linked.headers.authorization) };
    const active = (await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json();
    const [row] = await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, active.id));
    // A patient the record system does not show: no label, and the launch goes on.
    expect(row).toMatchObject({ userId: clinician.id, fhirPatientId: 'pat-70', fhirEncounterId: 'enc-70', patientLabel: null });
    await t.app.auditLog.flush();
    const events = await t.ctx.db.select().from(auditEvents).where(eq(auditEvents.resourceId, active.id)).orderBy(asc(auditEvents.id));
    expect(events.map((e) => [e.action, e.actorUserId])).toContainEqual(['create', clinician.id]);

    // The link is told to the account's owner, and is in the access log.
    expect(t.mails.at(-1)).toMatchObject({ to: clinician.email, subject: 'Your account was linked to a record system' });
    expect(t.mails.at(-1)!.text).toContain(new URL(fhir.base).host);
    const accountEvents = await t.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.resourceType, 'account'), eq(auditEvents.resourceId, clinician.id)));
    expect(accountEvents.map((e) => [e.action, e.actorUserId, e.outcome])).toContainEqual(['update', clinician.id, 'success']);

    // From now on the record system's user signs in to that account directly, with no password.
    fhir.registerLaunch('link-2', { patient: 'pat-70', encounter: 'enc-70', email: clinician.email.toUpperCase() });
    const again = await launch(org.id, 'link-2');
    expect(again.landing).toMatch(/\/launched$/);
    expect((await session(again.handover)).json().d_user.email).toBe(clinician.email);

    // A new password undoes the link: whoever knew the old one loses the way in it gave.
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/v1/account',
      headers,
      payload: { user: { current_password: clinician.password, password: 'a-new-secret-1' } },
    });
    expect(changed.statusCode).toBe(200);
    fhir.registerLaunch('link-3', { patient: 'pat-70', encounter: 'enc-70', email: clinician.email.toUpperCase() });
    expect((await launch(org.id, 'link-3')).landing).toMatch(/\/launch_link$/);
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('a link waits for a recording under way; a launch never moves an account to another organization', async () => {
    const org = await organizationWithRecordSystem('Clínica Ocupada');
    fhir.registerLaunchClient(CLIENT, callback());
    const clinician = await createUser(t, { name: 'Dr. Paulo', organizationId: org.id, organizationRole: 'member' });
    const headers = bearer(await login(t, clinician.email, clinician.password));
    const started = await t.app.inject({
      method: 'POST',
      url: '/v1/consultation_sessions',
      headers,
      payload: { consultation_type_id: 'general_consultation' },
    });
    expect(started.statusCode).toBeLessThan(300);
    const busy = started.json().consultation_session.id;
    await t.ctx.db.update(consultationSessions).set({ recordingState: 'recording' }).where(eq(consultationSessions.id, busy));
    fhir.registerLaunch('link-busy', { patient: 'pat-71', email: clinician.email });
    const cookie = linkCookieOf(await launch(org.id, 'link-busy')).split(';')[0]!;
    const linkWith = () => t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie }, payload: { password: clinician.password } });
    expect((await linkWith()).json().error.code).toBe('recording_elsewhere');
    expect(await t.ctx.db.select().from(recordSystemIdentities).where(eq(recordSystemIdentities.userId, clinician.id))).toEqual([]);
    // Paused: the same request goes on.
    await t.ctx.db.update(consultationSessions).set({ recordingState: 'paused' }).where(eq(consultationSessions.id, busy));
    expect((await linkWith()).statusCode).toBe(200);

    // Moved to another organization after the launch: the request no longer applies.
    const other = await createUser(t, { name: 'Dra. Mudou', organizationId: org.id, organizationRole: 'member' });
    fhir.registerLaunch('link-moved', { patient: 'pat-72', email: other.email });
    const moved = linkCookieOf(await launch(org.id, 'link-moved')).split(';')[0]!;
    await t.ctx.db.update(users).set({ organizationId: null }).where(eq(users.id, other.id));
    const refused = await t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie: moved }, payload: { password: other.password } });
    expect(refused.json().error.code).toBe('invalid_or_expired_token');
    // Made a server admin after the launch: the same.
    const third = await createUser(t, { name: 'Dr. Promovido', organizationId: org.id, organizationRole: 'member' });
    fhir.registerLaunch('link-promoted', { patient: 'pat-73', email: third.email });
    const promoted = linkCookieOf(await launch(org.id, 'link-promoted')).split(';')[0]!;
    await t.ctx.db.update(users).set({ serverAdmin: true }).where(eq(users.id, third.id));
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie: promoted }, payload: { password: third.password } })).json().error.code,
    ).toBe('invalid_or_expired_token');
    // Launches turned off by the admin after the launch began: the request no longer applies.
    const fourth = await createUser(t, { name: 'Dra. Quarta', organizationId: org.id, organizationRole: 'member' });
    fhir.registerLaunch('link-off', { patient: 'pat-74', email: fourth.email });
    const off = linkCookieOf(await launch(org.id, 'link-off')).split(';')[0]!;
    await t.ctx.db.update(organizationFhirEndpoints).set({ launchClientId: null }).where(eq(organizationFhirEndpoints.organizationId, org.id));
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie: off }, payload: { password: fourth.password } })).json().error.code,
    ).toBe('invalid_or_expired_token');
    for (const u of [other, third, fourth])
      expect(await t.ctx.db.select().from(recordSystemIdentities).where(eq(recordSystemIdentities.userId, u.id))).toEqual([]);
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('never takes over an account that existed before, nor one of another organization, on the record system’s word', async () => {
    const org = await organizationWithRecordSystem('Clínica Segura');
    fhir.registerLaunchClient(CLIENT, callback());
    // The organization's own admin (or anyone whose e-mail the record system writes): not signed in by a launch.
    const admin = await createUser(t, { name: 'Admin', organizationId: org.id, organizationRole: 'admin' });
    fhir.registerLaunch('take-admin', { patient: 'p', email: admin.email, name: 'Someone Else' });
    const asked = await launch(org.id, 'take-admin');
    expect(asked.landing).toBe(`${t.ctx.config.publicUrl}/launch_link`);
    expect(asked.handover).toBeUndefined();
    // Without the account's password the link cookie opens nothing; ten guesses at once get exactly five tries.
    const link = linkCookieOf(asked);
    expect(link).toMatch(/Path=\/v1\/launch_link; Max-Age=600; HttpOnly; SameSite=Lax/);
    const cookie = link.split(';')[0]!;
    // The page shows whose account, and which record system user would be let in.
    expect((await t.app.inject({ method: 'GET', url: '/v1/launch_link', headers: { cookie } })).json()).toEqual({
      launch_link: { email: admin.email, record_system: fhir.base, record_system_user: 'Someone Else', again: true },
    });
    const linkWith = (password: string, c = cookie) => t.app.inject({ method: 'POST', url: '/v1/launch_link', headers: { cookie: c }, payload: { password } });
    const guesses = await Promise.all(Array.from({ length: 10 }, () => linkWith('not-the-password')));
    const codes = guesses.map((g) => g.json().error.code);
    expect(codes.filter((c) => c === 'invalid_credentials')).toHaveLength(5);
    expect(codes.filter((c) => c === 'invalid_or_expired_token')).toHaveLength(5);
    expect((await linkWith(admin.password)).json().error.code).toBe('invalid_or_expired_token');
    expect(await t.ctx.db.select().from(recordSystemIdentities).where(eq(recordSystemIdentities.userId, admin.id))).toEqual([]);
    // The guesses counted against the account's sign-in back-off too: its own password form pauses now.
    expect((await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email: admin.email, password: admin.password } } })).statusCode).toBe(
      429,
    );
    // While paused, the right password on a new request is refused unchecked, links nothing, and costs the request nothing.
    fhir.registerLaunch('take-admin-2', { patient: 'p', email: admin.email });
    const paused = linkCookieOf(await launch(org.id, 'take-admin-2')).split(';')[0]!;
    for (let i = 0; i < 6; i++) expect((await linkWith(admin.password, paused)).statusCode).toBe(429);
    expect(await t.ctx.db.select().from(recordSystemIdentities).where(eq(recordSystemIdentities.userId, admin.id))).toEqual([]);
    await t.ctx.db.delete(loginBackoff);
    // Each wrong password is in the organization's access log against the account.
    await t.app.auditLog.flush();
    const tries = await t.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.resourceType, 'account'), eq(auditEvents.resourceId, admin.id)));
    expect(tries.filter((e) => e.outcome === 'failure' && e.actorKind === 'anonymous')).toHaveLength(5);
    // Pause over: the admin links, and is still asked at the next launch (an admin account is never opened on the token's word).
    const opened = await linkWith(admin.password, paused);
    expect(opened.statusCode).toBe(200);
    fhir.registerLaunch('take-admin-3', { patient: 'p', email: admin.email });
    expect((await launch(org.id, 'take-admin-3')).landing).toMatch(/\/launch_link$/);
    expect((await linkWith(admin.password, 'cn_launch_link=' + 'A'.repeat(43))).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/v1/launch_link', payload: { password: admin.password } })).statusCode).toBe(401);
    const root = await createUser(t, { name: 'Root', organizationId: org.id, organizationRole: 'member', serverAdmin: true });
    fhir.registerLaunch('take-root', { patient: 'p', email: root.email });
    expect(failure((await launch(org.id, 'take-root')).landing)).toBe('not_member');
    const stranger = await createUser(t, { name: 'Dr. Outro' });
    fhir.registerLaunch('take-stranger', { patient: 'p', email: stranger.email });
    expect(failure((await launch(org.id, 'take-stranger')).landing)).toBe('not_member');
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('a return is accepted once, from the browser that began it; another organization cannot take the launches', async () => {
    const org = await organizationWithRecordSystem('Clínica A');
    fhir.registerLaunchClient(CLIENT, callback());
    fhir.registerLaunch('launch-5', { patient: 'pat-3', email: 'new.one@clinic-a.test' });
    const start = await t.app.inject({ method: 'GET', url: `/launch/${org.id}?iss=${encodeURIComponent(fhir.base)}&launch=launch-5` });
    const nonce = String(start.headers['set-cookie']).split(';')[0]!;
    expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
    const back = new URL((await fetch(String(start.headers.location), { redirect: 'manual' })).headers.get('location')!);
    const at = (url: URL, cookie?: string) => t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: cookie ? { cookie } : {} });
    // Forwarded to another browser (no cookie, or its own): nothing, and the launch is still there for its browser.
    expect(failure(String((await at(back)).headers.location))).toBe('expired');
    expect(failure(String((await at(back, 'cn_launch=someone-else')).headers.location))).toBe('expired');
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    expect(failure(String((await at(forged, nonce)).headers.location))).toBe('expired');
    expect(String((await at(back, nonce)).headers.location)).toMatch(/\/launched$/);
    expect(failure(String((await at(back, nonce)).headers.location))).toBe('expired');

    // Another organization entering the same record system gets its own launch address; A's keeps working.
    const other = await organizationWithRecordSystem('Clínica B');
    fhir.registerLaunch('launch-6', { patient: 'pat-4', email: 'new.two@clinic-a.test' });
    expect((await launch(org.id, 'launch-6')).landing).toMatch(/\/launched$/);
    const [two] = await t.ctx.db.select().from(users).where(eq(users.email, 'new.two@clinic-a.test'));
    expect(two!.organizationId).toBe(org.id);

    // The authorization server refusing (an unknown launch) lands on the page that says so.
    expect(failure((await launch(org.id, 'no-such-launch')).landing)).toBe('refused');
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
    await t.ctx.db.delete(organizations).where(eq(organizations.id, other.id));
  });

  it('follows only the record system the organization linked, with a launch client id; odd queries land on the page', async () => {
    const org = await organizationWithRecordSystem('Clínica sem lançamentos', null);
    expect(failure((await launch(org.id, 'x')).landing)).toBe('unknown_record_system');
    const linked = await organizationWithRecordSystem('Clínica com lançamentos');
    expect(failure((await launch(linked.id, 'x', 'https://ehr.elsewhere.example/fhir')).landing)).toBe('unknown_record_system');
    for (const url of [
      '/launch',
      `/launch/not-a-uuid?iss=${encodeURIComponent(fhir.base)}&launch=x`,
      `/launch/${linked.id}?iss=a&iss=b&launch=x`,
      `/launch/callback?error=${'x'.repeat(500)}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(302);
      expect(String(res.headers.location), url).toMatch(/\/launch_failed\?reason=(unknown_record_system|refused)$/);
    }
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
    await t.ctx.db.delete(organizations).where(eq(organizations.id, linked.id));
  });
});

describe('the record system’s ID token, believed only once verified', () => {
  /** A launch of a clinician new to the app, with the ID token made wrong as told; whether an account was made for them. */
  let n = 0;
  async function launchWith(organizationId: string, change?: IdTokenChange) {
    const email = `verified.${++n}@clinic.test`;
    fhir.registerLaunch(`verify-${n}`, { patient: 'pat-v', email });
    fhir.changeIdTokens(change);
    try {
      // Each from its own browser: more launches than one may make in a minute.
      const { landing } = await launch(organizationId, `verify-${n}`, fhir.base, `198.51.100.${n}`);
      const [made] = await t.ctx.db.select().from(users).where(eq(users.email, email));
      return { landing, made };
    } finally {
      fhir.changeIdTokens(undefined);
    }
  }
  const keySetReads = () => fhir.requests.filter((r) => r.path === '/auth/jwks').length;

  it('signs in with a good token; one signed by another key, unsigned, of another issuer or audience, out of its time, or without this launch’s nonce signs nobody in', async () => {
    const org = await organizationWithRecordSystem('Clínica Verificada');
    fhir.registerLaunchClient(CLIENT, callback());
    const good = await launchWith(org.id);
    expect(good.landing).toMatch(/\/launched$/);
    expect(good.made).toBeDefined();
    // The authorization request carries a fresh nonce, and the token the record system signed for it.
    const nonces = [fhir.authorizations.at(-1)!.nonce];
    const goodToken = fhir.idTokens.at(-1)!;
    expect(nonces[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const now = Math.floor(Date.now() / 1000);
    const wrong: [string, IdTokenChange][] = [
      ['signed by a key the record system does not publish', { signer: 'stranger' }],
      ['unsigned (alg none)', { signer: 'none' }],
      ['an HMAC keyed by the record system’s public key', { signer: 'hs256-public-key' }],
      ['another issuer', { claims: { iss: 'https://ehr.elsewhere.example/fhir' } }],
      ['another audience', { claims: { aud: 'another-app' } }],
      ['several audiences and no azp', { claims: { aud: [CLIENT, 'another-app'] } }],
      ['issued to another client', { claims: { aud: [CLIENT, 'another-app'], azp: 'another-app' } }],
      ['expired', { claims: { iat: now - 3600, exp: now - 1800 } }],
      ['not valid yet', { claims: { nbf: now + 3600 } }],
      ['issued long before this launch', { claims: { iat: now - 3600 } }],
      ['without an expiry', { claims: { exp: undefined } }],
      ['without a nonce', { claims: { nonce: undefined } }],
      ['with another nonce', { claims: { nonce: 'not-this-launch' } }],
      ['replayed from an earlier launch', { token: goodToken }],
    ];
    for (const [label, change] of wrong) {
      const { landing, made } = await launchWith(org.id, change);
      expect(failure(landing), label).toBe('refused');
      expect(made, label).toBeUndefined();
      nonces.push(fhir.authorizations.at(-1)!.nonce);
    }
    // A nonce per launch, never the browser's cookie.
    expect(new Set(nonces).size).toBe(nonces.length);
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('reads the keys once and keeps them; a key id it does not know reads them once more, so a rotated key works and an unknown one is refused', async () => {
    const org = await organizationWithRecordSystem('Clínica das Chaves');
    fhir.registerLaunchClient(CLIENT, callback());
    expect((await launchWith(org.id)).landing).toMatch(/\/launched$/);
    const before = keySetReads();
    expect((await launchWith(org.id)).landing).toMatch(/\/launched$/);
    expect(keySetReads()).toBe(before);

    const unknown = await launchWith(org.id, { signer: 'stranger', kid: 'not-published' });
    expect(failure(unknown.landing)).toBe('refused');
    expect(keySetReads()).toBe(before + 1);

    // The record system rotates to a new key (another algorithm, ES256): read again once, and believed.
    await fhir.rotateIdTokenKey();
    const rotated = await launchWith(org.id);
    expect(rotated.landing).toMatch(/\/launched$/);
    expect(rotated.made).toBeDefined();
    expect(keySetReads()).toBe(before + 2);
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('finds the keys through the issuer’s OpenID configuration when the SMART one names none; never at a metadata address', async () => {
    const org = await organizationWithRecordSystem('Clínica OpenID');
    fhir.registerLaunchClient(CLIENT, callback());
    const jwks = fhir.tokenUrl.replace(/\/token$/, '/jwks');
    try {
      fhir.changeSmartConfiguration({ jwks_uri: undefined });
      fhir.openIdConfiguration({ issuer: fhir.base, jwks_uri: jwks });
      expect((await launchWith(org.id)).landing).toMatch(/\/launched$/);
      // An OpenID configuration of another issuer, or none: the launch does not begin.
      fhir.openIdConfiguration({ issuer: 'https://ehr.elsewhere.example', jwks_uri: jwks });
      expect(failure((await launchWith(org.id)).landing)).toBe('record_system_unreachable');
      fhir.openIdConfiguration(undefined);
      expect(failure((await launchWith(org.id)).landing)).toBe('record_system_unreachable');

      // Even where private networks are allowed, keys at a cloud metadata address are never read.
      const asked = fhir.authorizations.length;
      for (const address of [
        'http://169.254.169.254/latest/keys',
        'http://[::ffff:169.254.169.254]/keys',
        'http://metadata.google.internal/keys',
        'file:///etc/keys',
      ]) {
        fhir.changeSmartConfiguration({ jwks_uri: address });
        expect(failure((await launchWith(org.id)).landing), address).toBe('record_system_unreachable');
      }
      expect(fhir.authorizations.length).toBe(asked);
    } finally {
      fhir.changeSmartConfiguration({});
      fhir.openIdConfiguration(undefined);
    }
    expect((await launchWith(org.id)).landing).toMatch(/\/launched$/);
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });
});

describe('launch cookies over https', () => {
  it('are __Host- cookies, so neither a sibling subdomain nor a plain-http answer can plant one', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://notes.clinic.test' });
    try {
      const back = await secure.app.inject({ method: 'GET', url: '/launch/callback?code=c&state=s' });
      expect(String(back.headers['set-cookie'])).toMatch(/^__Host-cn_launch=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/);
      // A cookie without the prefix (which anyone on the network could set) is not read.
      const planted = await secure.app.inject({
        method: 'POST',
        url: '/v1/launch_link',
        headers: { cookie: `cn_launch_link=${'A'.repeat(43)}` },
        payload: { password: 'x' },
      });
      expect(planted.json().error.code).toBe('invalid_or_expired_token');
    } finally {
      await secure.close();
    }
  });
});
