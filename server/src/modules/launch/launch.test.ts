/**
 * A launch from the record system (SMART App Launch 2, EHR launch) against the FHIR test server acting as the
 * record system and its authorization server: the browser's redirects are followed by hand.
 */
import type { DocumentReference } from '@medplum/fhirtypes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultationSessions, organizations, users } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { fhirErrors, startFhirTestServer, type FhirTestServer } from '../../test-support/fhir-test-server.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';

let t: TestApp;
let fhir: FhirTestServer;
beforeAll(async () => {
  t = await createTestApp({ FHIR_ALLOW_PRIVATE_NETWORKS: 'true', LOGIN_RATE_LIMIT_PER_MINUTE: '100' });
  fhir = await startFhirTestServer();
}, 30_000);
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

/** The record system opens /launch; the browser follows to its authorization server and back. */
async function launch(launchId: string, iss = fhir.base) {
  const start = await t.app.inject({ method: 'GET', url: `/launch?iss=${encodeURIComponent(iss)}&launch=${launchId}` });
  expect(start.statusCode).toBe(302);
  const authorize = String(start.headers.location);
  if (!authorize.startsWith(fhir.base.replace('/fhir', ''))) return { landing: authorize };
  const back = await fetch(authorize, { redirect: 'manual' });
  expect(back.status).toBe(302);
  const returned = new URL(back.headers.get('location')!);
  expect(`${returned.origin}${returned.pathname}`).toBe(callback());
  const done = await t.app.inject({ method: 'GET', url: `${returned.pathname}${returned.search}` });
  expect(done.statusCode).toBe(302);
  return { landing: String(done.headers.location), returned };
}
const failure = (landing: string) => new URL(landing).searchParams.get('reason');

describe('launch from the record system (SMART App Launch)', () => {
  it('signs the clinician in (known by e-mail), opens the consultation for the patient, and the push names the patient', async () => {
    // Only one organization may be linked to this record system at a time (another launch test adds its own).
    const org = await organizationWithRecordSystem('Hospital da Luz');
    expect(org.settings).toMatchObject({ launch_client_id: CLIENT, launch_url: `${t.ctx.config.publicUrl}/launch`, redirect_url: callback() });
    const clinician = await createUser(t, { name: 'Dra. Inês Faria', organizationId: org.id, organizationRole: 'member' });
    fhir.registerLaunchClient(CLIENT, callback());
    fhir.registerLaunch('launch-1', { patient: 'pat-123', encounter: 'enc-9', email: clinician.email.toUpperCase() });

    const { landing } = await launch('launch-1');
    const request = fhir.authorizations.at(-1)!;
    expect(request).toMatchObject({ response_type: 'code', client_id: CLIENT, redirect_uri: callback(), launch: 'launch-1', aud: fhir.base, code_challenge_method: 'S256' });
    expect(request.scope!.split(' ')).toEqual(expect.arrayContaining(['launch', 'openid', 'fhirUser']));
    expect(landing).toMatch(new RegExp(`^${t.ctx.config.publicUrl}/launched/[0-9a-f]{64}$`));

    // The page the browser lands on signs in with the hand-over token, once.
    const token = landing.split('/').pop()!;
    const signed = await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token } });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().d_user.email).toBe(clinician.email);
    expect((await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token } })).statusCode).toBe(401);
    const headers = { authorization: String(signed.headers.authorization) };

    const active = (await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json();
    expect(active.active).toBe(true);
    const [row] = await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, active.id));
    expect(row).toMatchObject({ fhirPatientId: 'pat-123', fhirEncounterId: 'enc-9', organizationId: org.id });

    // Launched again for the same patient and encounter: the same consultation, not a new one.
    fhir.registerLaunch('launch-2', { patient: 'pat-123', encounter: 'enc-9', email: clinician.email });
    await launch('launch-2');
    expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json().id).toBe(active.id);

    // Its documents go to the record with the patient and the encounter named: no further choice.
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${active.id}/transcription`, headers, payload: { transcription: 'Dry cough for three days, no fever.' } });
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${active.id}/finish`, headers });
    await until(
      'notes written',
      async () => (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${active.id}/generated_documents/main`, headers })).json().generated_document?.status,
      (s) => s === 'done',
    );
    const pushed = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${active.id}/fhir_push`, headers });
    expect(pushed.statusCode).toBe(200);
    const filed = (fhir.stored.get('DocumentReference') as DocumentReference[]).at(-1)!;
    expect(filed.subject).toEqual({ reference: 'Patient/pat-123', type: 'Patient' });
    expect(filed.context?.encounter).toEqual([{ reference: 'Encounter/enc-9', type: 'Encounter' }]);
    expect(fhirErrors(filed)).toEqual([]);

    // A launch of the same record system for a clinician of another organization signs nobody in.
    const stranger = await createUser(t, { name: 'Dr. Outro' });
    fhir.registerLaunch('launch-3', { patient: 'pat-1', email: stranger.email });
    expect(failure((await launch('launch-3')).landing)).toBe('not_member');

    // A new clinician named by the record system (their Practitioner resource) gets an account in the organization.
    fhir.addPractitioner({ resourceType: 'Practitioner', id: 'pr-7', name: [{ given: ['Rui'], family: 'Costa' }], telecom: [{ system: 'email', value: 'rui.costa@hospital.test' }] });
    fhir.registerLaunch('launch-4', { patient: 'pat-2', fhirUser: 'Practitioner/pr-7' });
    expect((await launch('launch-4')).landing).toMatch(/\/launched\//);
    const [rui] = await t.ctx.db.select().from(users).where(eq(users.email, 'rui.costa@hospital.test'));
    expect(rui).toMatchObject({ name: 'Rui Costa', organizationId: org.id, organizationRole: 'member' });

    // A return replayed, a code stolen and used with another state: nothing.
    fhir.registerLaunch('launch-5', { patient: 'pat-3', email: clinician.email });
    const start = await t.app.inject({ method: 'GET', url: `/launch?iss=${encodeURIComponent(fhir.base)}&launch=launch-5` });
    const back = new URL((await fetch(String(start.headers.location), { redirect: 'manual' })).headers.get('location')!);
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    expect(failure(String((await t.app.inject({ method: 'GET', url: `${forged.pathname}${forged.search}` })).headers.location))).toBe('expired');
    expect(String((await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` })).headers.location)).toMatch(/\/launched\//);
    expect(failure(String((await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` })).headers.location))).toBe('expired');

    // The record system's authorization server refusing (an unknown launch) lands on the page that says so.
    expect(failure((await launch('no-such-launch')).landing)).toBe('refused');
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });

  it('follows only a record system an organization linked, with a launch client id', async () => {
    expect(failure((await launch('x', 'https://ehr.elsewhere.example/fhir')).landing)).toBe('unknown_record_system');
    expect(failure(String((await t.app.inject({ method: 'GET', url: '/launch' })).headers.location))).toBe('unknown_record_system');
    const org = await organizationWithRecordSystem('Clínica sem lançamentos', null);
    expect(failure((await launch('x')).landing)).toBe('unknown_record_system');
    await t.ctx.db.delete(organizations).where(eq(organizations.id, org.id));
  });
});
