import type { Bundle, Composition, DocumentReference, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { fhirIssues, indexDefinitions } from '../../test-support/fhir-test-server.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';
import { organizations } from '../../db/schema.js';
import { markdownToNarrative } from './fhir.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'words' } });
  indexDefinitions();
}, 120_000);
afterAll(() => t.close());

type Clinician = { id: string; headers: Record<string, string> };
async function clinician(fields: Parameters<typeof createUser>[1] = {}): Promise<Clinician> {
  const u = await createUser(t, { name: 'Dra. Rita Gomes', ...fields });
  return { id: u.id, headers: bearer(await login(t, u.email, u.password)) };
}

async function consultation(who: Clinician, transcript = 'Chest pain for two days, worse on effort. Started aspirin.') {
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers: who.headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers: who.headers, payload: { transcription: transcript } });
  return id;
}
const doc = (who: Clinician, id: string, key: string) =>
  t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/${key}`, headers: who.headers });
async function written(who: Clinician, id: string, key: string) {
  return until(
    `${key} written`,
    async () => (await doc(who, id, key)).json().generated_document,
    (d) => d?.status === 'done',
  );
}
/**
 * What the validator finds, less its warning that it cannot tell the type of a `urn:uuid:` reference: those are
 * how entries of a document Bundle point at each other (each resolves to an entry's fullUrl, checked below).
 */
const problems = (resource: Resource): OperationOutcomeIssue[] =>
  fhirIssues(resource).filter((issue) => !(issue.severity === 'warning' && /^Invalid reference: got "urn:uuid:/.test(issue.details?.text ?? '')));
const fhir = (who: Clinician | undefined, id: string) =>
  t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir`, headers: who?.headers ?? {} });

describe('FHIR R4 export of a consultation', () => {
  it('is a document Bundle valid against the R4 definitions: Composition first, author, a DocumentReference per finished document with its PDF and markdown', async () => {
    const [organization] = await t.ctx.db.insert(organizations).values({ name: 'Clínica do Lumiar' }).returning();
    const rita = await clinician({ language: 'pt', organizationId: organization!.id, organizationRole: 'member' });
    const id = await consultation(rita);
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: rita.headers });
    const notes = await written(rita, id, 'main');
    await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/referral_letter`, headers: rita.headers });
    const referral = await written(rita, id, 'referral_letter');

    // One document alone, as the workspace sends it: its own type, its own section.
    const single = (
      await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir?document=referral_letter`, headers: rita.headers })
    ).json() as Bundle;
    expect(problems(single)).toEqual([]);
    expect((single.entry![0]!.resource as Composition).type.coding![0]!.code).toBe('57133-1');
    expect(single.entry!.filter((e) => e.resource!.resourceType === 'DocumentReference')).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir?document=nonsense`, headers: rita.headers })).statusCode).toBe(404);

    const res = await fhir(rita, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const bundle = res.json() as Bundle;
    expect(problems(bundle)).toEqual([]);
    for (const e of bundle.entry!) expect(problems(e.resource as Resource), e.resource!.resourceType).toEqual([]);

    // The validator is no rubber stamp: a Composition without its status, or a document Bundle without its
    // timestamp (constraint bdl-10), is refused.
    const broken = structuredClone(bundle);
    delete (broken.entry![0]!.resource as Partial<Composition>).status;
    expect(problems(broken).map((i) => i.severity)).toContain('error');
    const undated = structuredClone(bundle);
    delete undated.timestamp;
    expect(problems(undated).map((i) => i.severity)).toContain('error');

    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document', identifier: { system: 'urn:ietf:rfc:3986' } });
    const types = bundle.entry!.map((e) => e.resource!.resourceType);
    // A provenance per document: who wrote it (here the clinician's own offline composer, no AI engine) and, once signed, who signed.
    expect(types).toEqual(['Composition', 'Practitioner', 'Organization', 'DocumentReference', 'DocumentReference', 'Provenance', 'Provenance']);
    const fullUrls = bundle.entry!.map((e) => e.fullUrl);
    expect(new Set(fullUrls).size).toBe(fullUrls.length);

    const composition = bundle.entry![0]!.resource as Composition;
    // Nothing signed yet: a draft, and no AI label (no model wrote it).
    expect(composition.meta).toBeUndefined();
    expect(composition).toMatchObject({
      status: 'preliminary',
      language: 'pt-PT',
      title: 'Notas da consulta',
      type: { coding: [{ system: 'http://loinc.org', code: '11488-4' }] },
      identifier: { value: id },
      custodian: { display: 'Clínica do Lumiar' },
    });
    // Every reference of the Composition resolves inside the Bundle.
    const references = [
      composition.author![0]!.reference,
      composition.custodian!.reference,
      ...composition.section!.flatMap((s) => s.entry!.map((r) => r.reference)),
    ];
    for (const reference of references) expect(fullUrls).toContain(reference);
    expect(composition.section!.map((s) => s.code!.coding![0]!.code)).toEqual(['11488-4', '57133-1']);
    expect(composition.section![0]!.text!.div).toContain('Chest pain');
    expect(composition.section![0]!.text!.div).toMatch(/^<div xmlns="http:\/\/www\.w3\.org\/1999\/xhtml">/);

    const [notesRef, referralRef] = bundle.entry!.slice(3, 5).map((e) => e.resource as DocumentReference);
    expect(notesRef!.docStatus).toBe('preliminary');
    expect(notesRef!.masterIdentifier).toEqual({ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${notes.id}` });
    expect(referralRef!.masterIdentifier!.value).toBe(`urn:uuid:${referral.id}`);
    expect(notesRef!.content.map((c) => c.attachment.contentType)).toEqual(['application/pdf', 'text/markdown']);
    const pdf = Buffer.from(notesRef!.content[0]!.attachment.data!, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.from(notesRef!.content[1]!.attachment.data!, 'base64').toString('utf8')).toBe(notes.text);
  });

  it('sends only finished text: the last finished version of each document, and 409 before there is any', async () => {
    const rita = await clinician({ language: 'en' });
    const id = await consultation(rita);
    const none = await fhir(rita, id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('no_documents');

    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: rita.headers });
    await written(rita, id, 'main');
    const boundary = '----cn-test';
    const edit = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
      headers: { ...rita.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${JSON.stringify({ markdown: '# Notes\n\n- Rewritten <b>by hand</b> & checked' })}\r\n--${boundary}--\r\n`,
    });
    expect(edit.statusCode).toBe(202);
    const bundle = (await fhir(rita, id)).json() as Bundle;
    expect(problems(bundle)).toEqual([]);
    const composition = bundle.entry![0]!.resource as Composition;
    expect(composition.language).toBe('en');
    expect(composition.section).toHaveLength(1);
    // The clinician's hand edit, as text: markup of a document never becomes markup of the record.
    expect(composition.section![0]!.text!.div).toBe(
      '<div xmlns="http://www.w3.org/1999/xhtml"><h1>Notes</h1><ul><li>Rewritten &lt;b&gt;by hand&lt;/b&gt; &amp; checked</li></ul></div>',
    );
    // No organization: no custodian, and no Organization entry.
    expect(bundle.entry!.map((e) => e.resource!.resourceType)).toEqual(['Composition', 'Practitioner', 'DocumentReference', 'Provenance']);
    // The hand edit is version 2: it says which version it replaces, for a record system that has the first.
    const v1 = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main?version=1`, headers: rita.headers })).json()
      .generated_document;
    const reference = bundle.entry![2]!.resource as DocumentReference;
    expect(reference.relatesTo).toEqual([
      { code: 'replaces', target: { type: 'DocumentReference', identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${v1.id}` } } },
    ]);
    // The same versions make the same document: exported again, the Bundle has the same identifier.
    expect(((await fhir(rita, id)).json() as Bundle).identifier).toEqual(bundle.identifier);
  });

  it("answers 404 for another clinician's consultation and 401 without a token", async () => {
    const rita = await clinician();
    const other = await clinician({ name: 'Dr. Outro' });
    const id = await consultation(rita);
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: rita.headers });
    await written(rita, id, 'main');
    expect((await fhir(other, id)).statusCode).toBe(404);
    expect((await fhir(undefined, id)).statusCode).toBe(401);
    expect((await fhir(rita, 'not-a-uuid')).statusCode).toBe(400);
  });

  it('narrative always holds text, and no character XML forbids', () => {
    expect(markdownToNarrative('---')).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>---</p></div>');
    expect(markdownToNarrative('Pain\u0001 score\u0007 7')).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>Pain score 7</p></div>');
  });

  it('narrative keeps headings, paragraphs and lists and escapes everything else', () => {
    expect(markdownToNarrative('## S\n\nPain "sharp" <3 days\n\n* one\n* two\n\nEnd')).toBe(
      '<div xmlns="http://www.w3.org/1999/xhtml"><h2>S</h2><p>Pain &quot;sharp&quot; &lt;3 days</p><ul><li>one</li><li>two</li></ul><p>End</p></div>',
    );
  });
});
