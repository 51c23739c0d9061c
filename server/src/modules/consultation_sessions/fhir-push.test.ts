import type { DocumentReference } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { auditEvents, organizations, users } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { fhirErrors, startFhirTestServer, type FhirTestServer } from '../../test-support/fhir-test-server.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';
import { fetch } from 'undici';
import { checkOutboundUrl, isNonPublicAddress, outboundDispatcher } from '../../security/outbound-guard.js';

let t: TestApp;
let strict: TestApp;
let fhir: FhirTestServer;
beforeAll(async () => {
  // The record system runs on this machine: the server must allow private networks to reach it.
  t = await createTestApp({ FHIR_ALLOW_PRIVATE_NETWORKS: 'true', LOGIN_RATE_LIMIT_PER_MINUTE: '100' });
  strict = await createTestApp();
  fhir = await startFhirTestServer();
}, 120_000);
afterAll(async () => {
  await fhir.close();
  await t.close();
  await strict.close();
});

type Person = { id: string; headers: Record<string, string> };
async function person(app: TestApp, organizationId: string | null, role: 'admin' | 'member'): Promise<Person> {
  const u = await createUser(app, {
    name: role === 'admin' ? 'Admin Clínica' : 'Dra. Rita Gomes',
    organizationId,
    organizationRole: organizationId ? role : null,
  });
  return { id: u.id, headers: bearer(await login(app, u.email, u.password)) };
}
async function organization(app: TestApp, name = 'Clínica do Lumiar') {
  const [org] = await app.ctx.db.insert(organizations).values({ name }).returning();
  return { id: org!.id, admin: await person(app, org!.id, 'admin'), member: await person(app, org!.id, 'member') };
}
const setEndpoint = (app: TestApp, who: Person, orgId: string, payload: Record<string, unknown>) =>
  app.app.inject({ method: 'PUT', url: `/v1/organizations/${orgId}/fhir_endpoint`, headers: who.headers, payload });

async function finishedConsultation(app: TestApp, who: Person) {
  const id = (
    await app.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers: who.headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await app.app.inject({
    method: 'PUT',
    url: `/v1/consultation_sessions/${id}/transcription`,
    headers: who.headers,
    payload: { transcription: 'Dry cough for three days, no fever.' },
  });
  await app.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: who.headers });
  await until(
    'notes written',
    async () =>
      (await app.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers: who.headers })).json().generated_document
        ?.status,
    (s) => s === 'done',
  );
  return id;
}
const push = (app: TestApp, who: Person, id: string) =>
  app.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/fhir_push`, headers: who.headers });
const documentReferences = () => (fhir.stored.get('DocumentReference') ?? []) as DocumentReference[];

describe('send to record (FHIR push)', () => {
  it('with a bearer token: files a valid DocumentReference with the PDF, the Bundle too, and never twice', async () => {
    const org = await organization(t);
    fhir.acceptToken('static-token-of-the-record-system');
    const saved = await setEndpoint(t, org.admin, org.id, { base_url: `${fhir.base}/`, auth: 'bearer', token: 'static-token-of-the-record-system' });
    expect(saved.statusCode).toBe(200);
    // The token is kept sealed: the settings say there is one, never what it is.
    expect(saved.json().fhir_endpoint).toMatchObject({ base_url: fhir.base, auth: 'bearer', has_token: true });
    expect(saved.body).not.toContain('static-token');

    const id = await finishedConsultation(t, org.member);
    const before = documentReferences().length;
    const res = await push(t, org.member, id);
    expect(res.statusCode).toBe(200);
    const result = res.json().fhir_push;
    expect(result.status).toBe('sent');
    expect(result.resources.map((r: { resource_type: string; status: number }) => [r.resource_type, r.status])).toEqual([
      ['DocumentReference', 201],
      ['Bundle', 201],
    ]);
    expect(result.resources[0].location).toMatch(/\/fhir\/DocumentReference\/\d+\/_history\/1$/);
    const filed = documentReferences().at(-1)!;
    expect(documentReferences()).toHaveLength(before + 1);
    expect(fhirErrors(filed)).toEqual([]);
    expect(filed.content.map((c) => c.attachment.contentType)).toEqual(['application/pdf', 'text/markdown']);
    expect(Buffer.from(filed.content[0]!.attachment.data!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    // Standing alone, the author is named by identifier, not by an address only the Bundle resolves.
    expect(filed.author![0]).toMatchObject({ display: 'Dra. Rita Gomes', identifier: { system: 'urn:consultation-notes:user', value: org.member.id } });
    expect(filed.custodian).toMatchObject({ display: 'Clínica do Lumiar' });

    // Sent again (a double click, a second device): the record system finds the same versions and files nothing new.
    const bundles = (fhir.stored.get('Bundle') ?? []).length;
    const again = await push(t, org.member, id);
    expect(again.json().fhir_push.resources.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expect(documentReferences()).toHaveLength(before + 1);
    expect(fhir.stored.get('Bundle') ?? []).toHaveLength(bundles);

    // The push is in the audit log as an export of the consultation's documents.
    await t.app.auditLog.flush();
    const events = await t.ctx.db.select().from(auditEvents);
    expect(
      events
        .filter((e) => e.action === 'export' && e.resourceType === 'generated_document' && e.resourceId === id && e.actorUserId === org.member.id)
        .map((e) => e.statusCode),
    ).toEqual([200, 200]);
    // So is the admin's setting of where documents go, without its token.
    expect(events.filter((e) => e.resourceType === 'record_system' && e.resourceId === org.id).map((e) => [e.action, e.actorUserId, e.statusCode])).toEqual([
      ['update', org.admin.id, 200],
    ]);
    expect(JSON.stringify(events)).not.toContain('static-token');
  });

  it('with SMART Backend Services: signs in with a client assertion signed by the key the JWKS publishes', async () => {
    const org = await organization(t, 'Hospital de Santa Maria');
    const saved = await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'backend_services', client_id: 'consultation-notes-hsm' });
    expect(saved.statusCode).toBe(200);
    const view = saved.json().fhir_endpoint;
    expect(view).toMatchObject({ auth: 'backend_services', client_id: 'consultation-notes-hsm', scope: 'system/DocumentReference.c system/Bundle.c' });
    // The record system's admin registers the public key from its published address (no sign-in needed there).
    const jwks = await t.app.inject({ method: 'GET', url: new URL(view.jwks_url).pathname });
    expect(jwks.statusCode).toBe(200);
    const keys = jwks.json();
    expect(keys.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-384', alg: 'ES384', use: 'sig' });
    expect(keys.keys[0].d).toBeUndefined();
    fhir.registerClient('consultation-notes-hsm', keys);

    const id = await finishedConsultation(t, org.member);
    const res = await push(t, org.member, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().fhir_push.status).toBe('sent');
    const pushes = fhir.requests.filter((r) => r.method === 'POST' && r.path === '/DocumentReference');
    expect(pushes.at(-1)!.authorized).toBe(true);

    // Pointed at another server (or another client registration), the organization gets a new key: tokens that a
    // record system grants for the old key can never be asked for on behalf of a new address.
    const moved = await setEndpoint(t, org.admin, org.id, {
      base_url: `${fhir.base}/elsewhere`,
      auth: 'backend_services',
      client_id: 'consultation-notes-hsm',
    });
    const movedKeys = (await t.app.inject({ method: 'GET', url: new URL(moved.json().fhir_endpoint.jwks_url).pathname })).json();
    expect(movedKeys.keys[0].kid).not.toBe(keys.keys[0].kid);
    const unchanged = await setEndpoint(t, org.admin, org.id, {
      base_url: `${fhir.base}/elsewhere`,
      auth: 'backend_services',
      client_id: 'consultation-notes-hsm',
      scope: 'system/DocumentReference.c',
    });
    expect((await t.app.inject({ method: 'GET', url: new URL(unchanged.json().fhir_endpoint.jwks_url).pathname })).json().keys[0].kid).toBe(
      movedKeys.keys[0].kid,
    );

    // A key the record system does not know is refused at sign-in, and the clinician is told so.
    fhir.registerClient('consultation-notes-hsm', { keys: [] });
    const other = await organization(t, 'Outra clínica');
    await setEndpoint(t, other.admin, other.id, { base_url: fhir.base, auth: 'backend_services', client_id: 'consultation-notes-hsm' });
    const refused = await push(t, other.member, await finishedConsultation(t, other.member));
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toMatchObject({ code: 'fhir_push_failed' });
    expect(refused.json().error.fields.record_system).toMatch(/^401/);
  });

  it('retries while the record system is busy, and says what it answered when it stays busy', async () => {
    const org = await organization(t, 'Clínica Busy');
    fhir.acceptToken('busy-token');
    await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'bearer', token: 'busy-token' });
    const id = await finishedConsultation(t, org.member);
    fhir.failNext(2, 503);
    const recovered = await push(t, org.member, id);
    expect(recovered.statusCode).toBe(200);

    const second = await finishedConsultation(t, org.member);
    const before = documentReferences().length;
    fhir.failNext(10, 503);
    const failed = await push(t, org.member, second);
    fhir.failNext(0, 503);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.fields.record_system).toBe('503: The record system is busy');
    expect(documentReferences()).toHaveLength(before);
  });

  it('a push filed in part answers 207 with what was refused, and the audit log says partly done', async () => {
    const org = await organization(t, 'Clínica Parcial');
    fhir.acceptToken('partial-token');
    await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'bearer', token: 'partial-token' });
    const id = await finishedConsultation(t, org.member);
    const before = documentReferences().length;
    fhir.refuseCreates('Bundle');
    const res = await push(t, org.member, id).finally(() => fhir.refuseCreates(undefined));
    expect(res.statusCode).toBe(207);
    const result = res.json().fhir_push;
    expect(result).toMatchObject({ status: 'partial', error: '422: Bundle is not accepted here' });
    expect(result.resources.map((r: { resource_type: string; status: number }) => [r.resource_type, r.status])).toEqual([
      ['DocumentReference', 201],
      ['Bundle', 0],
    ]);
    expect(documentReferences()).toHaveLength(before + 1);
    // Sent again once the record system takes it: the document is found, the Bundle filed.
    const again = await push(t, org.member, id);
    expect(again.statusCode).toBe(200);
    expect(again.json().fhir_push.resources.map((r: { status: number }) => r.status)).toEqual([200, 201]);

    await t.app.auditLog.flush();
    // In the order they were written (a database returns rows in no given order without one).
    const events = await t.ctx.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
    expect(events.filter((e) => e.action === 'export' && e.resourceId === id).map((e) => [e.outcome, e.statusCode])).toEqual([
      ['partial', 207],
      ['success', 200],
    ]);
  });

  it('a consultation goes to the record system of the organization it was held for, never to the next one’s', async () => {
    const first = await organization(t, 'Primeira clínica');
    const next = await organization(t, 'Segunda clínica');
    fhir.acceptToken('first-token');
    fhir.acceptToken('next-token');
    await setEndpoint(t, first.admin, first.id, { base_url: fhir.base, auth: 'bearer', token: 'first-token' });
    await setEndpoint(t, next.admin, next.id, { base_url: fhir.base, auth: 'bearer', token: 'next-token' });
    const id = await finishedConsultation(t, first.member);
    // The clinician moves to the next organization.
    await t.ctx.db.update(users).set({ organizationId: next.id, organizationRole: 'member' }).where(eq(users.id, first.member.id));
    const moved = await push(t, first.member, id);
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error.code).toBe('fhir_not_configured');
    // Downloaded, its custodian is still the organization it was held for.
    const bundle = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir`, headers: first.member.headers })).json();
    expect(bundle.entry[0].resource.custodian.display).toBe('Primeira clínica');
    // A consultation held for the next organization goes to its record system.
    expect((await push(t, first.member, await finishedConsultation(t, first.member))).statusCode).toBe(200);
  });

  it('a refusal of the record system is not retried, and a wrong token is the record system’s 401', async () => {
    const org = await organization(t, 'Clínica Wrong');
    await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'bearer', token: 'a-token-it-never-issued' });
    const id = await finishedConsultation(t, org.member);
    const count = fhir.requests.length;
    const res = await push(t, org.member, id);
    expect(res.statusCode).toBe(502);
    expect(res.json().error.fields.record_system).toBe('401: No valid access token');
    expect(fhir.requests.length - count).toBe(1);
  });

  it('a hostile answer is reported in one bounded line, never as a server failure', async () => {
    const org = await organization(t, 'Clínica Hostile');
    fhir.acceptToken('hostile-token');
    await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'bearer', token: 'hostile-token' });
    const id = await finishedConsultation(t, org.member);
    for (const body of [
      '{"resourceType":"OperationOutcome","issue":"x"}',
      '{"resourceType":"OperationOutcome","issue":[null,{"details":{"text":7}}]}',
      JSON.stringify('A'.repeat(200_000)),
      'not json\u0000\n<script>',
    ]) {
      fhir.failNext(1, 400, body);
      const res = await push(t, org.member, id);
      expect(res.statusCode, body.slice(0, 40)).toBe(502);
      const said = res.json().error.fields.record_system as string;
      expect(said.length).toBeLessThanOrEqual(310);
      expect(said).toMatch(/^400/);
      expect(said).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  it('only admins set the record system; members see nothing of it; without one a push says so', async () => {
    const org = await organization(t, 'Clínica Rules');
    const member = await setEndpoint(t, org.member, org.id, { base_url: fhir.base, auth: 'none' });
    expect(member.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/v1/organizations/${org.id}/fhir_endpoint`, headers: org.member.headers })).statusCode).toBe(403);
    const stranger = await organization(t, 'Another');
    expect((await t.app.inject({ method: 'GET', url: `/v1/organizations/${org.id}/fhir_endpoint`, headers: stranger.admin.headers })).statusCode).toBe(404);
    expect((await setEndpoint(t, stranger.admin, org.id, { base_url: fhir.base, auth: 'none' })).statusCode).toBe(404);
    // A bearer setting needs its token; backend services its client id.
    expect((await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'bearer' })).json().error.fields).toEqual({ token: 'required' });
    expect((await setEndpoint(t, org.admin, org.id, { base_url: fhir.base, auth: 'backend_services' })).json().error.fields).toEqual({ client_id: 'required' });
    expect((await setEndpoint(t, org.admin, org.id, { base_url: 'ftp://records.example', auth: 'none' })).json().error.fields).toEqual({
      base_url: 'invalid_url',
    });
    // Resource paths are appended to the base: a query or fragment would swallow them.
    expect((await setEndpoint(t, org.admin, org.id, { base_url: `${fhir.base}?tenant=1`, auth: 'none' })).json().error.fields).toEqual({
      base_url: 'invalid_url',
    });
    expect((await setEndpoint(t, org.admin, org.id, { base_url: `${fhir.base}#x`, auth: 'none' })).json().error.fields).toEqual({ base_url: 'invalid_url' });

    const id = await finishedConsultation(t, org.member);
    const none = await push(t, org.member, id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('fhir_not_configured');
    // Somebody else's consultation: 404, whatever their organization has.
    expect((await push(t, stranger.member, id)).statusCode).toBe(404);
  });

  it('by default only https to public addresses: no loopback, private network or cloud metadata address', async () => {
    const org = await organization(strict);
    for (const base_url of [
      fhir.base,
      'https://127.0.0.1/fhir',
      'https://10.1.2.3/fhir',
      'https://169.254.169.254/latest',
      'https://[::1]/fhir',
      'https://localhost/fhir',
      'http://records.example.org/fhir',
    ]) {
      const res = await setEndpoint(strict, org.admin, org.id, { base_url, auth: 'none' });
      expect(res.statusCode, base_url).toBe(400);
      expect(res.json().error.fields, base_url).toEqual({ base_url: 'address_not_allowed' });
    }
    // A public name is accepted; what it resolves to is checked again at every connection.
    expect((await setEndpoint(strict, org.admin, org.id, { base_url: 'https://records.example.org/fhir', auth: 'none' })).statusCode).toBe(200);
  });

  it('at connection time, a name that resolves to a loopback address is refused (the check after DNS)', async () => {
    const guarded = outboundDispatcher(false);
    const port = new URL(fhir.base).port;
    const requestsBefore = fhir.requests.length;
    const failure = await fetch(`http://localhost:${port}/fhir/metadata`, { dispatcher: guarded }).then(
      () => undefined,
      (err: unknown) => err as Error & { cause?: { code?: string } },
    );
    expect(failure?.cause?.code).toBe('EADDRNOTALLOWED');
    expect(fhir.requests.length).toBe(requestsBefore);
    // The same request through a dispatcher that allows private networks reaches it.
    expect((await fetch(`http://localhost:${port}/fhir/metadata`, { dispatcher: outboundDispatcher(true) })).status).toBe(200);
    await guarded.close();
  });

  it('a cloud metadata address is refused even where private networks are allowed, in every written form', () => {
    for (const base of [
      'http://169.254.169.254/fhir',
      'http://[::ffff:a9fe:a9fe]/fhir',
      'http://[::ffff:169.254.169.254]/fhir',
      'http://[0:0:0:0:0:ffff:a9fe:a9fe]/fhir',
      'http://metadata.google.internal/fhir',
    ]) {
      expect(() => checkOutboundUrl(base, true), base).toThrow();
    }
    expect(checkOutboundUrl('http://10.1.2.3/fhir', true).hostname).toBe('10.1.2.3');
  });

  it('address literals of every non-public kind are refused, public ones allowed', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      'not-an-ip',
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isNonPublicAddress(address), address).toBe(false);
    // WHATWG URLs turn decimal, hex and short IPv4 forms into dotted quads before the check.
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://017700000001/', 'https://127.1/'])
      expect(() => checkOutboundUrl(url, false), url).toThrow();
  });
});
