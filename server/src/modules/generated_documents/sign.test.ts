import type { Bundle, Composition, DocumentReference, Provenance } from '@medplum/fhirtypes';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import { auditEvents, organizations } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { startFhirTestServer, type FhirTestServer } from '../../test-support/fhir-test-server.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';
import { runCommand } from '../../admin/commands.js';

/** An AI engine that writes at once; `hold` keeps the next version writing until released. */
let hold: Promise<void> | undefined;
const ai: TextGenerator = {
  info: { engine: 'openai', model: 'clinic-model-7b', usesAi: true },
  async *write(req) {
    if (hold) await hold;
    yield `# ${req.documentKind}\n\nCough for a week, no fever.`;
  },
};

let t: TestApp;
let fhir: FhirTestServer;
beforeAll(async () => {
  t = await createTestApp({ FHIR_ALLOW_PRIVATE_NETWORKS: 'true' }, { textGenerator: ai });
  fhir = await startFhirTestServer();
}, 120_000);
afterAll(async () => {
  await fhir.close();
  await t.close();
});

type Person = { id: string; headers: Record<string, string> };
async function clinic() {
  const [org] = await t.ctx.db.insert(organizations).values({ name: 'Clínica do Lumiar' }).returning();
  await runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: org!.id, amount: '20' });
  const person = async (role: 'admin' | 'member', name: string): Promise<Person> => {
    const u = await createUser(t, { name, organizationId: org!.id, organizationRole: role });
    return { id: u.id, headers: bearer(await login(t, u.email, u.password)) };
  };
  return { id: org!.id, admin: await person('admin', 'Admin Clínica'), rita: await person('member', 'Dra. Rita Gomes') };
}

const url = (id: string, rest = '') => `/v1/consultation_sessions/${id}/generated_documents/main${rest}`;
const get = async (who: Person, id: string) => (await t.app.inject({ method: 'GET', url: url(id), headers: who.headers })).json().generated_document;
const sign = (who: Person, id: string, payload?: object) =>
  t.app.inject({ method: 'POST', url: url(id, '/sign'), headers: who.headers, ...(payload ? { payload } : {}) });
const bundleOf = async (who: Person, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir`, headers: who.headers })).json() as Bundle;
const resources = <T>(bundle: Bundle, type: string) => bundle.entry!.filter((e) => e.resource!.resourceType === type).map((e) => e.resource as T);

async function finished(who: Person) {
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers: who.headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.app.inject({
    method: 'PUT',
    url: `/v1/consultation_sessions/${id}/transcription`,
    headers: who.headers,
    payload: { transcription: 'Cough for a week.' },
  });
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: who.headers });
  await until(
    'notes written',
    () => get(who, id),
    (d) => d?.status === 'done',
  );
  return id;
}

function edit(who: Person, id: string, markdown: string) {
  const boundary = '----sign';
  return t.app.inject({
    method: 'POST',
    url: url(id, '/regenerate'),
    headers: { ...who.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${JSON.stringify({ markdown })}\r\n--${boundary}--\r\n`,
  });
}

describe('sign-off of a document', () => {
  it('a document is a draft until signed; the record gets it as preliminary, AI-asserted, then final, clinician-asserted, with its provenance', async () => {
    const { rita } = await clinic();
    const id = await finished(rita);
    const draft = await get(rita, id);
    expect(draft).toMatchObject({ signed_at: null, signed_by: null, model: 'clinic-model-7b', uses_ai: true });

    const before = await bundleOf(rita, id);
    const [draftRef] = resources<DocumentReference>(before, 'DocumentReference');
    expect(draftRef!.docStatus).toBe('preliminary');
    expect(draftRef!.meta?.security).toEqual([expect.objectContaining({ code: 'AIAST' })]);
    expect(resources<Composition>(before, 'Composition')[0]!.status).toBe('preliminary');
    // The model that drafted it is named: a Device with its model, the author of the Provenance.
    const [device] = resources<{ deviceName: { name: string; type: string }[] }>(before, 'Device');
    expect(device!.deviceName).toContainEqual({ name: 'clinic-model-7b', type: 'model-name' });
    const [draftProvenance] = resources<Provenance>(before, 'Provenance');
    expect(draftProvenance!.agent.map((a) => [a.type!.coding![0]!.code, a.who.type])).toEqual([['author', 'Device']]);

    const signed = await sign(rita, id, { version: draft.version });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().generated_document).toMatchObject({ version: draft.version, signed_by: rita.id });
    expect(Date.parse(signed.json().generated_document.signed_at)).toBeGreaterThan(0);
    // Again: nothing changes, the first signature stands.
    const again = await sign(rita, id);
    expect(again.json().generated_document.signed_at).toBe(signed.json().generated_document.signed_at);

    const after = await bundleOf(rita, id);
    const [finalRef] = resources<DocumentReference>(after, 'DocumentReference');
    expect(finalRef!.docStatus).toBe('final');
    expect(finalRef!.meta?.security).toEqual([expect.objectContaining({ code: 'CLINAST' })]);
    expect(finalRef!.authenticator?.display).toBe('Dra. Rita Gomes');
    // Another identity than the draft's, marked as replacing it: a record that filed the draft files this too.
    expect(finalRef!.masterIdentifier!.value).not.toBe(draftRef!.masterIdentifier!.value);
    expect(finalRef!.relatesTo).toContainEqual({ code: 'replaces', target: { type: 'DocumentReference', identifier: draftRef!.masterIdentifier } });
    expect(after.identifier).not.toEqual(before.identifier);
    const composition = resources<Composition>(after, 'Composition')[0]!;
    expect(composition.status).toBe('final');
    expect(composition.attester?.[0]).toMatchObject({ mode: 'legal', party: { display: 'Dra. Rita Gomes' } });
    const [provenance] = resources<Provenance>(after, 'Provenance');
    expect(provenance!.agent.map((a) => [a.type!.coding![0]!.code, a.who.type])).toEqual([
      ['author', 'Device'],
      ['attester', 'Practitioner'],
    ]);

    // The sign-off is in the audit log, with the version signed.
    await until(
      'sign-off audited',
      async () =>
        t.ctx.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.actorUserId, rita.id), eq(auditEvents.resourceId, id))),
      (rows) => rows.some((r) => r.action === 'update' && Object.values(r.extraIds).includes(draft.id)),
    );

    // A change after signing is a new version, and a draft again; the clinician's edit of an AI draft is still labelled.
    expect((await edit(rita, id, '# Notes\n\nCough for two weeks.')).statusCode).toBe(202);
    const edited = await get(rita, id);
    expect(edited).toMatchObject({ version: draft.version + 1, signed_at: null });
    const [editedRef] = resources<DocumentReference>(await bundleOf(rita, id), 'DocumentReference');
    expect(editedRef!.docStatus).toBe('preliminary');
    expect(editedRef!.meta?.security).toEqual([expect.objectContaining({ code: 'AIAST' })]);
  });

  it('signs only the version the clinician read, only a finished one, and only their own', async () => {
    const { rita, admin } = await clinic();
    const id = await finished(rita);
    const v1 = await get(rita, id);
    expect((await edit(rita, id, '# Notes\n\nChanged.')).statusCode).toBe(202);
    const stale = await sign(rita, id, { version: v1.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_not_latest');

    // Another clinician, even their organization's admin, cannot sign it; bad input is a 400.
    expect((await sign(admin, id)).statusCode).toBe(404);
    expect((await sign(rita, id, { version: 'two' })).statusCode).toBe(400);
    expect((await sign(rita, id, { version: 0 })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: url(id, '/sign') })).statusCode).toBe(401);

    // A version still being written cannot be signed.
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    try {
      const boundary = '----sign';
      const writing = await t.app.inject({
        method: 'POST',
        url: url(id, '/regenerate'),
        headers: { ...rita.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${JSON.stringify({ text: 'shorter' })}\r\n--${boundary}--\r\n`,
      });
      expect(writing.statusCode).toBe(202);
      const refused = await sign(rita, id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('document_not_finished');
    } finally {
      hold = undefined;
      release();
    }
    await until(
      'change written',
      () => get(rita, id),
      (d) => d?.status === 'done',
    );
    expect((await sign(rita, id)).statusCode).toBe(200);
  });

  it('an organization that requires sign-off sends no draft to the record', async () => {
    const org = await clinic();
    fhir.acceptToken('token-of-the-record');
    const endpoint = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/organizations/${org.id}/fhir_endpoint`,
        headers: org.admin.headers,
        payload: { base_url: fhir.base, auth: 'bearer', token: 'token-of-the-record', ...payload },
      });
    expect((await endpoint({ require_sign_off: true })).json().fhir_endpoint.require_sign_off).toBe(true);
    // Saved again without the setting (an older form): it stays on.
    expect((await endpoint({})).json().fhir_endpoint.require_sign_off).toBe(true);
    // Only an admin sets it.
    const byMember = await t.app.inject({
      method: 'PUT',
      url: `/v1/organizations/${org.id}/fhir_endpoint`,
      headers: org.rita.headers,
      payload: { base_url: fhir.base, auth: 'none', require_sign_off: false },
    });
    expect(byMember.statusCode).toBe(403);

    const id = await finished(org.rita);
    const push = () => t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/fhir_push`, headers: org.rita.headers });
    const filedBefore = (fhir.stored.get('DocumentReference') ?? []).length;
    const refused = await push();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('sign_off_required');
    expect((fhir.stored.get('DocumentReference') ?? []).length).toBe(filedBefore);

    expect((await sign(org.rita, id)).statusCode).toBe(200);
    const sent = await push();
    expect(sent.statusCode).toBe(200);
    const filed = (fhir.stored.get('DocumentReference') ?? []) as DocumentReference[];
    expect(filed.at(-1)).toMatchObject({ docStatus: 'final', authenticator: { display: 'Dra. Rita Gomes' } });
  });
});
