import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textRecordPdf } from '../../../tests/fixtures/patient-records.js';
import { runCommand, UsageError } from '../admin/commands.js';
import { auditEvents, evaluationResults, researchPatients } from '../db/schema.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { createOrganizationWithAdmin } from '../modules/organizations/service.js';

/** Patient text used in the requests below: none of it may ever reach an audit row. */
const TRANSCRIPT_MARKER = 'Quaresma-transcript-7731 chest pain since Tuesday';
const PATIENT_LABEL = 'Maria Quaresma 7731';
const FILE_NAME = 'Quaresma Maria 1968-03-14.pdf';
const NOTE_MARKER = 'invoice Quaresma-7731';
/** Words no id, hash or time can contain (ids and hashes are hexadecimal). */
const PATIENT_TEXT = [TRANSCRIPT_MARKER, 'Quaresma', 'Tuesday', '1968-03-14'];

function pdfForm(name: string, data: Buffer, label: string) {
  const boundary = '----cn-audit';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="label"\r\n\r\n${label}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let t: TestApp;
let organizationId: string;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'words' } });
  ({ organizationId } = await createOrganizationWithAdmin(t.ctx.db, {
    name: 'Clínica do Audit',
    adminEmail: 'audit-admin@clinic.test',
    publicUrl: t.ctx.config.publicUrl,
  }));
});
afterAll(() => t.close());

async function allEvents() {
  await t.app.auditLog.flush();
  return t.ctx.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
}
async function lastId() {
  return (await allEvents()).at(-1)?.id ?? 0;
}
/** What `run` added to the log. */
async function eventsOf(run: () => Promise<unknown>) {
  const since = await lastId();
  await run();
  return (await allEvents()).filter((e) => e.id > since);
}
async function clinician(name = 'Dra. Ana Lopes') {
  const u = await createUser(t, { name, organizationId, organizationRole: 'member' });
  return { ...u, headers: { ...bearer(await login(t, u.email, u.password)), 'user-agent': 'TestBrowser/1.0' } };
}
async function consultationWithTranscript(headers: Record<string, string>) {
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: TRANSCRIPT_MARKER } });
  return id;
}

describe('the audit log of access to patient data', () => {
  it('reading a consultation makes exactly one row: who, what, when, from where, outcome', async () => {
    const doctor = await clinician();
    const id = await consultationWithTranscript(doctor.headers);
    const before = Date.now();
    const rows = await eventsOf(() => t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers: doctor.headers }));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorUserId: doctor.id,
      actorOrganizationId: organizationId,
      actorKind: 'user',
      action: 'read',
      resourceType: 'consultation_session',
      resourceId: id,
      extraIds: {},
      outcome: 'success',
      statusCode: 200,
      clientAddress: '127.0.0.1',
      userAgent: 'TestBrowser/1.0',
    });
    expect(rows[0]!.occurredAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records creating a consultation and changing and reading its transcript, with no text', async () => {
    const doctor = await clinician();
    let id = '';
    const rows = await eventsOf(async () => {
      id = await consultationWithTranscript(doctor.headers);
      await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers: doctor.headers });
    });
    expect(rows.map((r) => [r.action, r.resourceType, r.resourceId, r.statusCode])).toEqual([
      ['create', 'consultation_session', id, 201],
      ['update', 'transcript', id, 200],
      ['read', 'transcript', id, 200],
    ]);
    expect(JSON.stringify(await allEvents())).not.toContain('Quaresma');
  });

  it('records a denied read by another user (404) and one without a token (401) as failures', async () => {
    const owner = await clinician();
    const id = await consultationWithTranscript(owner.headers);
    const stranger = await createUser(t, { name: 'Dr. Outro' });
    const strangerHeaders = bearer(await login(t, stranger.email, stranger.password));
    const rows = await eventsOf(async () => {
      expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers: strangerHeaders })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription` })).statusCode).toBe(401);
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      actorUserId: stranger.id,
      actorOrganizationId: null,
      actorKind: 'user',
      action: 'read',
      resourceId: id,
      outcome: 'failure',
      statusCode: 404,
    });
    expect(rows[1]).toMatchObject({
      actorUserId: null,
      actorKind: 'anonymous',
      action: 'read',
      resourceType: 'transcript',
      resourceId: id,
      outcome: 'failure',
      statusCode: 401,
    });
  });

  it('keeps only what looks like an id: a typed value in place of an id or document key is stored as "invalid"', async () => {
    const doctor = await clinician();
    const id = await consultationWithTranscript(doctor.headers);
    const rows = await eventsOf(async () => {
      await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/Quaresma-7731', headers: doctor.headers });
      await t.app.inject({
        method: 'GET',
        url: `/v1/consultation_sessions/${id}/generated_documents/Quaresma?version=7731&note=Quaresma`,
        headers: doctor.headers,
      });
    });
    expect(rows.map((r) => [r.resourceId, r.extraIds, r.statusCode])).toEqual([
      ['invalid', {}, 400],
      [id, { document: 'invalid', version: '7731' }, 404],
    ]);
    expect(JSON.stringify(rows)).not.toContain('Quaresma');
  });

  it('records documents (version asked, Server-Sent Events stream) but not the 5-second active-status poll', async () => {
    const doctor = await clinician();
    const id = await consultationWithTranscript(doctor.headers);
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: doctor.headers });
    for (let i = 0; i < 100; i++) {
      const d = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers: doctor.headers })).json()
        .generated_document;
      if (d && d.status !== 'generating') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const rows = await eventsOf(async () => {
      expect(
        (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main?version=1`, headers: doctor.headers })).statusCode,
      ).toBe(200);
      const stream = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main/stream`, headers: doctor.headers });
      expect(stream.body).toContain('event: done');
      for (let i = 0; i < 3; i++) {
        expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers: doctor.headers })).statusCode).toBe(200);
      }
    });
    expect(rows.map((r) => [r.action, r.resourceType, r.resourceId, r.extraIds, r.statusCode])).toEqual([
      ['read', 'generated_document', id, { document: 'main', version: '1' }, 200],
      ['read', 'generated_document', id, { document: 'main' }, 200],
    ]);
  });

  it('uploading and downloading a patient PDF: the new patient id and the file id, never the file name or label', async () => {
    const researcher = await clinician('Dr. Rui Nunes');
    const space = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: researcher.headers, payload: { research_space: { name: 'Endocrinologia' } } })
    ).json().research_space;
    const form = pdfForm(FILE_NAME, textRecordPdf(['Patient 7731', 'Type 2 diabetes mellitus.']), PATIENT_LABEL);
    let patient: { id: string; files: { id: string }[] } = { id: '', files: [] };
    const uploaded = await eventsOf(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/research_spaces/${space.id}/patients`,
        headers: { ...researcher.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(201);
      patient = res.json().patient;
    });
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]).toMatchObject({
      action: 'create',
      resourceType: 'research_patient',
      resourceId: patient.id,
      extraIds: { space: space.id },
      statusCode: 201,
    });

    const fileUrl = `/v1/research_spaces/${space.id}/patients/${patient.id}/files/${patient.files[0]!.id}`;
    const downloaded = await eventsOf(async () => {
      const res = await t.app.inject({ method: 'GET', url: fileUrl, headers: researcher.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain(encodeURIComponent(FILE_NAME));
    });
    expect(downloaded).toHaveLength(1);
    expect(downloaded[0]).toMatchObject({
      actorUserId: researcher.id,
      actorOrganizationId: organizationId,
      action: 'read',
      resourceType: 'research_patient_file',
      resourceId: patient.files[0]!.id,
      extraIds: { space: space.id, patient: patient.id },
      outcome: 'success',
      statusCode: 200,
    });

    const deleted = await eventsOf(() =>
      t.app.inject({ method: 'DELETE', url: `/v1/research_spaces/${space.id}/patients/${patient.id}`, headers: researcher.headers }),
    );
    expect(deleted.map((r) => [r.action, r.resourceType, r.resourceId, r.statusCode])).toEqual([['delete', 'research_patient', patient.id, 204]]);
    const dump = JSON.stringify(await allEvents());
    for (const text of [FILE_NAME, PATIENT_LABEL, ...PATIENT_TEXT]) expect(dump).not.toContain(text);
  });

  it('deleting a trial is recorded as deleting its screening results, which go with it, and scrubs them', async () => {
    const researcher = await clinician('Dr. Rui Nunes');
    const h = researcher.headers;
    const space = (await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: h, payload: { research_space: { name: 'Cardiologia' } } })).json()
      .research_space.id as string;
    const trial = (
      await t.app.inject({ method: 'POST', url: `/v1/research_spaces/${space}/trials`, headers: h, payload: { trial: { name: 'HF-7731' } } })
    ).json().trial.id as string;
    const criterion = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/research_spaces/${space}/trials/${trial}/criteria`,
        headers: h,
        payload: { criterion: { definition: 'Age over 18', type: 'critical_inclusion' } },
      })
    ).json().criterion.id as string;
    const [patient] = await t.ctx.db.insert(researchPatients).values({ spaceId: space, label: PATIENT_LABEL }).returning();
    await t.ctx.db.insert(evaluationResults).values({
      trialId: trial,
      patientId: patient!.id,
      preEvaluation: 'fit',
      criteriaMet: 1,
      criteriaTotal: 1,
      criteria: [
        { criterion_id: criterion, definition: 'Age over 18', type: 'critical_inclusion', needs_review: false, verdict: 'met', evidence: 'born 1968-03-14' },
      ],
      explanation: `${PATIENT_LABEL} is 58`,
      status: 'in_review',
      engine: 'offline',
    });
    let scrubs = 0;
    const scrub = t.ctx.requestScrub;
    t.ctx.requestScrub = () => {
      scrubs++;
      scrub();
    };
    try {
      // Removing a criterion leaves the results (each keeps its copy of the criteria): no patient data, no event.
      const criterionRemoved = await eventsOf(() =>
        t.app.inject({ method: 'DELETE', url: `/v1/research_spaces/${space}/trials/${trial}/criteria/${criterion}`, headers: h }),
      );
      expect(criterionRemoved).toEqual([]);
      expect(await t.ctx.db.select().from(evaluationResults).where(eq(evaluationResults.trialId, trial))).toHaveLength(1);
      expect(scrubs).toBe(0);

      const rows = await eventsOf(async () => {
        expect((await t.app.inject({ method: 'DELETE', url: `/v1/research_spaces/${space}/trials/${trial}`, headers: h })).statusCode).toBe(204);
      });
      expect(rows.map((r) => [r.actorUserId, r.action, r.resourceType, r.resourceId, r.extraIds, r.statusCode])).toEqual([
        [researcher.id, 'delete', 'screening_result', null, { space, trial }, 204],
      ]);
      expect(await t.ctx.db.select().from(evaluationResults).where(eq(evaluationResults.trialId, trial))).toEqual([]);
      expect(scrubs).toBe(1);
    } finally {
      t.ctx.requestScrub = scrub;
    }
  });

  it("reading what a template produced (excerpts of its documents) is recorded with the template's id", async () => {
    const doctor = await clinician();
    const template = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/processor_inputs/consultation_notes_template/templates',
        headers: doctor.headers,
        payload: { template: { name: 'SOAP', template: 'Complaint: {{transcript}}' } },
      })
    ).json().template.id as string;
    const stranger = await clinician('Dr. Outro');
    const rows = await eventsOf(async () => {
      expect((await t.app.inject({ method: 'GET', url: `/template/${template}/reports`, headers: doctor.headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `/template/${template}/reports`, headers: stranger.headers })).statusCode).toBe(404);
    });
    expect(rows.map((r) => [r.actorUserId, r.action, r.resourceType, r.extraIds, r.statusCode])).toEqual([
      [doctor.id, 'read', 'generated_document', { template }, 200],
      [stranger.id, 'read', 'generated_document', { template }, 404],
    ]);
  });

  it("reading, changing and sending a custom document request, whose answers name its example files, is recorded; never a file's name", async () => {
    const doctor = await clinician();
    const h = doctor.headers;
    const body = { custom_document_request: { title: 'Letter', sections: [{ title: 'History' }], other_comments: '' } };
    let id = '';
    const created = await eventsOf(async () => {
      id = (await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: h, payload: body })).json().custom_document_request.id;
    });
    // A new request has no example yet: not patient data.
    expect(created).toEqual([]);
    const boundary = '----cn-example';
    const example = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${FILE_NAME}"\r\nContent-Type: application/pdf\r\n\r\n`),
      textRecordPdf(['Letter for Maria Quaresma']),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const rows = await eventsOf(async () => {
      const added = await t.app.inject({
        method: 'POST',
        url: `/v1/custom_document_requests/${id}/examples`,
        headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: example,
      });
      expect(added.statusCode).toBe(201);
      expect((await t.app.inject({ method: 'GET', url: '/v1/custom_document_requests', headers: h })).body).toContain('Quaresma');
      expect((await t.app.inject({ method: 'GET', url: `/v1/custom_document_requests/${id}`, headers: h })).body).toContain('Quaresma');
      expect((await t.app.inject({ method: 'PUT', url: `/v1/custom_document_requests/${id}`, headers: h, payload: body })).body).toContain('Quaresma');
      expect((await t.app.inject({ method: 'POST', url: `/v1/custom_document_requests/${id}/submit`, headers: h })).statusCode).toBe(200);
    });
    expect(rows.map((r) => [r.action, r.resourceType, r.resourceId, r.statusCode])).toEqual([
      ['create', 'document_example', id, 201],
      ['read', 'document_example', null, 200],
      ['read', 'document_example', id, 200],
      ['update', 'document_example', id, 200],
      ['export', 'document_example', id, 200],
    ]);
    expect(JSON.stringify(await allEvents())).not.toContain('Quaresma');
  });

  it('records every admin command with its name and outcome, never its arguments', async () => {
    const rows = await eventsOf(async () => {
      await runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: organizationId, amount: '5', note: NOTE_MARKER });
      await expect(runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: 'No such clinic', amount: '5' })).rejects.toThrow(UsageError);
      await expect(runCommand(t.ctx.db, t.ctx.config, 'drop-everything-Quaresma', {})).rejects.toThrow(UsageError);
    });
    expect(rows.map((r) => [r.actorKind, r.actorUserId, r.action, r.resourceType, r.resourceId, r.outcome, r.clientAddress])).toEqual([
      ['admin_cli', null, 'execute', 'admin_command', 'grant-credits', 'success', 'local'],
      ['admin_cli', null, 'execute', 'admin_command', 'grant-credits', 'failure', 'local'],
      ['admin_cli', null, 'execute', 'admin_command', null, 'failure', 'local'],
    ]);
    expect(rows[0]!.userAgent).toMatch(/^admin-cli \(.+\)$/);
    expect(JSON.stringify(rows)).not.toContain('Quaresma');
  });

  it('keeps the rows when the account that made them is deleted', async () => {
    const doctor = await clinician();
    await consultationWithTranscript(doctor.headers);
    const before = (await allEvents()).filter((e) => e.actorUserId === doctor.id).length;
    expect(before).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/account', headers: doctor.headers })).statusCode).toBe(204);
    const after = (await allEvents()).filter((e) => e.actorUserId === doctor.id);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ action: 'delete', resourceType: 'account', resourceId: doctor.id, statusCode: 204 });
  });

  it("refuses UPDATE, DELETE and TRUNCATE through the app's connection, and grants them to nobody", async () => {
    await clinician();
    const id = await lastId();
    for (const statement of [
      sql`update audit_events set outcome = 'success' where id = ${id}`,
      sql`delete from audit_events where id = ${id}`,
      sql`truncate audit_events`,
    ]) {
      await expect(t.ctx.db.execute(statement)).rejects.toThrow();
    }
    // Refused by the trigger, whose message names the rule (whatever the role's rights).
    const refused = await t.ctx.db.execute(sql`delete from audit_events where id = ${id}`).catch((err: unknown) => err as Error & { cause?: Error });
    expect(String((refused as { cause?: Error }).cause?.message ?? refused)).toContain('append-only');
    expect((await allEvents()).at(-1)!.id).toBe(id);
    const grants = await t.ctx.db.execute<{ privilege_type: string }>(
      sql`select privilege_type from information_schema.role_table_grants where table_name = 'audit_events'`,
    );
    const granted = (grants as unknown as { rows: { privilege_type: string }[] }).rows.map((r) => r.privilege_type);
    expect(granted).toContain('INSERT');
    expect(granted.filter((p) => ['UPDATE', 'DELETE', 'TRUNCATE'].includes(p))).toEqual([]);
  });

  // Last: it breaks the chain on purpose (and mends it again where it can).
  it('verify-audit-log finds a changed row, a removed row and a cut end', async () => {
    const intact = await runCommand(t.ctx.db, t.ctx.config, 'verify-audit-log', {});
    expect(intact[0]).toMatch(/^The audit log is intact: \d+ events/);
    const doctor = await clinician();
    const id = await consultationWithTranscript(doctor.headers);
    await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers: doctor.headers });
    const rows = await allEvents();
    const target = rows.find((r) => r.resourceId === id && r.action === 'read')!;
    const withTrigger = async (change: () => Promise<unknown>) => {
      // What an intruder with the owner's rights could do: switch the guard off, change, switch it back on.
      await t.ctx.db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
      try {
        await change();
      } finally {
        await t.ctx.db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
      }
    };
    const verify = (args: Record<string, unknown> = {}) => runCommand(t.ctx.db, t.ctx.config, 'verify-audit-log', args);

    await withTrigger(() => t.ctx.db.execute(sql`update audit_events set outcome = 'failure', status_code = 404 where id = ${target.id}`));
    await expect(verify()).rejects.toThrow(`The audit log is broken at event ${target.id}: its fields are not those its hash was made from`);
    await withTrigger(() => t.ctx.db.execute(sql`update audit_events set outcome = 'success', status_code = 200 where id = ${target.id}`));
    const mended = await verify();
    const head = mended[1]!.replace('Newest hash: ', '');

    await withTrigger(() => t.ctx.db.execute(sql`delete from audit_events where id = ${target.id}`));
    const next = (await allEvents()).find((r) => r.id > target.id)!;
    await expect(verify()).rejects.toThrow(`The audit log is broken at event ${next.id}: the events after ${target.id - 1} and before it are missing`);

    // Cutting the end leaves a valid chain: only the hash noted down earlier shows it.
    await withTrigger(() => t.ctx.db.execute(sql`delete from audit_events where id >= ${target.id}`));
    expect((await verify())[0]).toMatch(/intact/);
    await expect(verify({ 'expect-hash': head })).rejects.toThrow(`none has the hash ${head}`);
  });
});

describe('the client address behind a trusted proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => proxied.close());

  it('is the address the proxy forwarded (TRUST_PROXY=true)', async () => {
    const u = await createUser(proxied);
    const headers = { ...bearer(await login(proxied, u.email, u.password)), 'x-forwarded-for': '203.0.113.7' };
    await proxied.app.inject({ method: 'GET', url: '/v1/consultation_sessions', headers });
    await proxied.app.auditLog.flush();
    const [row] = await proxied.ctx.db.select().from(auditEvents);
    expect(row).toMatchObject({ action: 'read', resourceType: 'consultation_session', clientAddress: '203.0.113.7' });
  });
});
