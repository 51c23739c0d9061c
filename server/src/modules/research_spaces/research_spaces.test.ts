import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import { eq, sql } from 'drizzle-orm';
import { organizations, researchPatientFiles, trialScreenings } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { DIA3_DESCRIPTION, scannedRecordPdf, textRecordPdf as pdf } from '../../../../tests/fixtures/patient-records.js';
import { ocrAvailable } from './pdf-ocr.js';
import { grantCredits } from '../credits/service.js';

function form(files: { name: string; data: Buffer; type?: string }[], fields: Record<string, string> = {}) {
  const boundary = '----cn-research';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const description = DIA3_DESCRIPTION + '\n- Pregnancy';

const eligible = pdf([
  'Patient 0042',
  'Date of birth: 1968-03-14',
  'Type 2 diabetes mellitus since 2015.',
  'HbA1c 8.2 % in October.',
  'eGFR 74 mL/min.',
  'Not pregnant.',
]);
const ineligible = pdf(['Patient 0077', 'Age: 81', 'Type 2 diabetes mellitus.', 'HbA1c 7.4 %.', 'eGFR 25 mL/min.']);

async function waitForScreening(t: TestApp, headers: Record<string, string>, url: string) {
  for (let i = 0; i < 100; i++) {
    const s = (await t.app.inject({ method: 'GET', url, headers })).json().screening;
    if (s.status !== 'running') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('screening did not finish');
}

describe('research spaces without AI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function researcher(organizationId?: string) {
    const u = await createUser(t, { name: 'Dr. Rui Nunes', organizationId, organizationRole: organizationId ? 'member' : null, language: 'pt' });
    return { ...u, headers: bearer(await login(t, u.email, u.password)) };
  }

  it('trial, criteria from the description, patients from PDFs, screening, review, CSV and deletion', async () => {
    const u = await researcher();
    const space = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: u.headers, payload: { research_space: { name: 'Endocrinologia' } } })
    ).json().research_space;
    const base = `/v1/research_spaces/${space.id}`;
    const trial = (await t.app.inject({ method: 'POST', url: `${base}/trials`, headers: u.headers, payload: { trial: { name: 'DIA-3', description } } })).json()
      .trial;

    const generated = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/criteria/generate`, headers: u.headers });
    expect(generated.statusCode).toBe(201);
    expect(generated.json().engine).toBe('offline');
    expect(generated.json().criteria.map((c: { type: string }) => c.type)).toEqual([
      'critical_inclusion',
      'critical_inclusion',
      'critical_inclusion',
      'critical_exclusion',
      'critical_exclusion',
    ]);
    // Generating again adds nothing already there.
    expect((await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/criteria/generate`, headers: u.headers })).json().criteria).toEqual([]);
    const pregnancy = generated.json().criteria[4];
    const edited = await t.app.inject({
      method: 'PUT',
      url: `${base}/trials/${trial.id}/criteria/${pregnancy.id}`,
      headers: u.headers,
      payload: { criterion: { definition: 'Pregnancy', type: 'non_critical_exclusion', needs_review: false } },
    });
    expect(edited.json().criterion.type).toBe('non_critical_exclusion');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${base}/trials/${trial.id}/criteria`,
          headers: u.headers,
          payload: { criterion: { definition: 'x', type: 'sometimes' } },
        })
      ).statusCode,
    ).toBe(400);

    // Screening needs patients.
    expect((await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: u.headers })).statusCode).toBe(400);

    const one = form([{ name: 'relatorio 0042.pdf', data: eligible }], { label: 'Doente 0042' });
    const p1 = await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...one.headers }, payload: one.payload });
    expect(p1.statusCode).toBe(201);
    expect(p1.json().patient).toMatchObject({ label: 'Doente 0042', files: [{ file_name: 'relatorio 0042.pdf', pages: 1, text_status: 'read' }] });
    const two = form([{ name: 'p0077.pdf', data: ineligible }]);
    expect(
      (await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...two.headers }, payload: two.payload })).json().patient.label,
    ).toBe('p0077');

    // Bad uploads are refused whole, with the file named.
    const eleven = form(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.pdf`, data: eligible })));
    const tooMany = await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...eleven.headers }, payload: eleven.payload });
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().error.message).toBe('At most 10 PDF files per patient');
    const notPdf = form([
      { name: 'ok.pdf', data: eligible },
      { name: 'notes.txt', data: Buffer.from('hello'), type: 'text/plain' },
    ]);
    const refused = await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...notPdf.headers }, payload: notPdf.payload });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().error.message).toBe('notes.txt: Only PDF files can be added');
    // A long record (several MB, over the JSON body limit) is accepted; beyond 20 MB a file is refused.
    const big = form([{ name: 'long.pdf', data: Buffer.concat([eligible, Buffer.from(`\n%${'x'.repeat(3 * 1024 * 1024)}\n`)]) }], { label: 'Long record' });
    const accepted = await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...big.headers }, payload: big.payload });
    expect(accepted.statusCode).toBe(201);
    await t.app.inject({ method: 'DELETE', url: `${base}/patients/${accepted.json().patient.id}`, headers: u.headers });
    const huge = form([{ name: 'huge.pdf', data: Buffer.concat([eligible, Buffer.alloc(21 * 1024 * 1024, 32)]) }]);
    const refusedHuge = await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...huge.headers }, payload: huge.payload });
    expect(refusedHuge.statusCode).toBe(413);
    expect(refusedHuge.json().error.message).toBe('Each PDF can be at most 20 MB');
    const broken = form([{ name: 'broken.pdf', data: Buffer.from('%PDF-1.7 nothing else') }]);
    expect(
      (await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...broken.headers }, payload: broken.payload })).statusCode,
    ).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `${base}/patients`, headers: u.headers })).json().patients).toHaveLength(2);
    const fileUrl = `${base}/patients/${p1.json().patient.id}/files/${p1.json().patient.files[0].id}`;
    const original = await t.app.inject({ method: 'GET', url: fileUrl, headers: u.headers });
    expect(original.headers['content-type']).toBe('application/pdf');
    expect(original.rawPayload.equals(eligible)).toBe(true);
    const stranger = await researcher();
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: stranger.headers })).statusCode).toBe(404);

    const started = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: u.headers });
    expect(started.statusCode).toBe(202);
    expect(started.json().screening).toMatchObject({ status: 'running', total: 2, engine: 'offline' });
    const done = await waitForScreening(t, u.headers, `${base}/trials/${trial.id}/screenings/${started.json().screening.id}`);
    expect(done).toMatchObject({ status: 'completed', done: 2, error: null });

    const results = (await t.app.inject({ method: 'GET', url: `${base}/results?trial_id=${trial.id}`, headers: u.headers })).json().results;
    expect(
      results.map((r: { patient_label: string; pre_evaluation: string; criteria_met: number }) => [r.patient_label, r.pre_evaluation, r.criteria_met]),
    ).toEqual([
      ['Doente 0042', 'fit', 5],
      // Type 2 diabetes, HbA1c and (at 81) no pregnancy count for them; the age and eGFR rule them out.
      ['p0077', 'not_approved', 3],
    ]);
    expect(results[0].status).toBe('in_review');
    // Both records speak of the trial's condition; the one ruled out comes last whatever its score.
    for (const r of results) expect(r.relevance).toBeGreaterThan(20);
    expect(results[1].criteria.find((c: { definition: string }) => c.definition.startsWith('eGFR'))).toMatchObject({
      verdict: 'met',
      evidence: expect.stringContaining('eGFR 25'),
    });

    // A screening still running blocks another; one whose heartbeat stopped (its process died) does not.
    const [stuck] = await t.ctx.db.insert(trialScreenings).values({ trialId: trial.id, total: 2, engine: 'offline' }).returning();
    expect((await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: u.headers })).statusCode).toBe(409);
    await t.ctx.db
      .update(trialScreenings)
      .set({ heartbeatAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(trialScreenings.id, stuck!.id));
    const again = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: u.headers });
    expect(again.statusCode).toBe(202);
    await waitForScreening(t, u.headers, `${base}/trials/${trial.id}/screenings/${again.json().screening.id}`);
    expect(
      (await t.app.inject({ method: 'GET', url: `${base}/trials/${trial.id}/screenings/${stuck!.id}`, headers: u.headers })).json().screening,
    ).toMatchObject({ status: 'failed', error: 'interrupted by a server restart' });

    const approved = await t.app.inject({
      method: 'PUT',
      url: `${base}/results/${results[0].id}`,
      headers: u.headers,
      payload: { result: { status: 'approved' } },
    });
    expect(approved.json().result).toMatchObject({ status: 'approved', reviewed_at: expect.any(String) });

    const csv = await t.app.inject({ method: 'GET', url: `${base}/results.csv?trial_id=${trial.id}`, headers: u.headers });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain("filename*=UTF-8''DIA-3-results.csv");
    const lines = csv.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^"Doente 0042";"DIA-3";"Apto";"5\/5";"\d{1,3}";"Em revisão";"Apto: 5 de 5 critérios satisfeitos."/);
    expect(lines[1]).toContain('"Aprovado";"";"Dr. Rui Nunes"');

    // Editing criteria later does not rewrite a past result; deleting a patient takes their results and files.
    await t.app.inject({ method: 'DELETE', url: `${base}/trials/${trial.id}/criteria/${pregnancy.id}`, headers: u.headers });
    expect((await t.app.inject({ method: 'GET', url: `${base}/results?trial_id=${trial.id}`, headers: u.headers })).json().results[0].criteria_total).toBe(5);
    expect((await t.app.inject({ method: 'DELETE', url: `${base}/results/${results[1].id}`, headers: u.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `${base}/patients/${p1.json().patient.id}`, headers: u.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `${base}/results`, headers: u.headers })).json().results).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: base, headers: u.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: base, headers: u.headers })).statusCode).toBe(404);
  });

  // poppler and tesseract are installed by `npm test` (scripts/test.mjs); a machine without them cannot read scans.
  it.skipIf(!ocrAvailable())('a scanned record is read in the background, and screening waits for it', async () => {
    const u = await researcher();
    const space = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: u.headers, payload: { research_space: { name: 'Scans' } } })
    ).json().research_space;
    const base = `/v1/research_spaces/${space.id}`;
    const trial = (
      await t.app.inject({ method: 'POST', url: `${base}/trials`, headers: u.headers, payload: { trial: { name: 'DIA-3', description: DIA3_DESCRIPTION } } })
    ).json().trial;
    await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/criteria/generate`, headers: u.headers });
    const scan = form([
      {
        name: 'digitalizado.pdf',
        data: scannedRecordPdf(['Clinical report - Patient 0099', 'Idade: 64 anos', 'Type 2 diabetes mellitus since 2012.', 'HbA1c 9,1 %. eGFR 55 mL/min.']),
      },
    ]);
    const added = await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...u.headers, ...scan.headers }, payload: scan.payload });
    expect(added.json().patient.files[0].text_status).toMatch(/^ocr_(pending|running)$/);
    const early = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: u.headers });
    // The scan may already be read on a fast machine; otherwise the screening is refused until it is.
    if (early.statusCode === 409) expect(early.json().error.code).toBe('records_being_read');
    else await waitForScreening(t, u.headers, `${base}/trials/${trial.id}/screenings/${early.json().screening.id}`);

    await t.ctx.ocrQueue.drain();
    const [patient] = (await t.app.inject({ method: 'GET', url: `${base}/patients`, headers: u.headers })).json().patients;
    expect(patient.files[0].text_status).toBe('ocr_done');
    const started = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: u.headers });
    expect(started.statusCode).toBe(202);
    await waitForScreening(t, u.headers, `${base}/trials/${trial.id}/screenings/${started.json().screening.id}`);
    const [result] = (await t.app.inject({ method: 'GET', url: `${base}/results`, headers: u.headers })).json().results;
    expect(result).toMatchObject({ pre_evaluation: 'fit', criteria_met: 4 });
    expect(result.criteria.find((c: { definition: string }) => c.definition.startsWith('HbA1c')).evidence).toContain('9,1');

    // Another worker holds the file (its lease runs): left alone. Once that lease has passed (the worker died), it is
    // read again here, and only the holder of the new lease records the text.
    const fileId: string = patient.files[0].id;
    const row = async () => (await t.ctx.db.select().from(researchPatientFiles).where(eq(researchPatientFiles.id, fileId)))[0]!;
    await t.ctx.db
      .update(researchPatientFiles)
      .set({ textStatus: 'ocr_running', ocrLockedUntil: sql`now() + interval '1 minute'`, text: '' })
      .where(eq(researchPatientFiles.id, fileId));
    await t.ctx.ocrQueue.drain();
    expect(await row()).toMatchObject({ textStatus: 'ocr_running', text: '' });
    await t.ctx.db.update(researchPatientFiles).set({ ocrLockedUntil: sql`now() - interval '1 second'` }).where(eq(researchPatientFiles.id, fileId));
    await t.ctx.ocrQueue.drain();
    expect(await row()).toMatchObject({ textStatus: 'ocr_done', ocrLockedUntil: null, text: expect.stringContaining('9,1') });
  });

  it('a space is seen by its creator and their organization, and by nobody else', async () => {
    const [org] = await t.ctx.db.insert(organizations).values({ name: 'Hospital' }).returning();
    const [other] = await t.ctx.db.insert(organizations).values({ name: 'Elsewhere' }).returning();
    const owner = await researcher(org!.id);
    const colleague = await researcher(org!.id);
    const outsider = await researcher(other!.id);
    const loner = await researcher();
    const space = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: owner.headers, payload: { research_space: { name: 'Oncologia' } } })
    ).json().research_space;
    expect(space.shared_with_organization).toBe(true);
    const personal = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: loner.headers, payload: { research_space: { name: 'Só meu' } } })
    ).json().research_space;

    const names = async (u: { headers: Record<string, string> }) =>
      (await t.app.inject({ method: 'GET', url: '/v1/research_spaces', headers: u.headers })).json().research_spaces.map((s: { name: string }) => s.name);
    expect(await names(colleague)).toEqual(['Oncologia']);
    expect(await names(outsider)).toEqual([]);
    expect(await names(loner)).toEqual(['Só meu']);
    for (const [u, url] of [
      [outsider, `/v1/research_spaces/${space.id}/trials`],
      [loner, `/v1/research_spaces/${space.id}/patients`],
      [owner, `/v1/research_spaces/${personal.id}`],
    ] as const) {
      expect((await t.app.inject({ method: 'GET', url, headers: u.headers })).statusCode).toBe(404);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/research_spaces/${space.id}/trials`, headers: colleague.headers, payload: { trial: { name: 'ONC-1' } } }))
        .statusCode,
    ).toBe(201);
    // A colleague works in the shared space but cannot delete it for everyone; its creator can.
    expect((await t.app.inject({ method: 'GET', url: `/v1/research_spaces/${space.id}`, headers: colleague.headers })).json().research_space.can_delete).toBe(
      false,
    );
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/research_spaces/${space.id}`, headers: colleague.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/research_spaces/${space.id}`, headers: owner.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/v1/research_spaces' })).statusCode).toBe(401);
  });
});

describe('research spaces with a model', () => {
  let t: TestApp;
  const asked: string[] = [];
  // A scripted model: it lists criteria, then screens by finding each criterion's id in the request.
  const model: TextGenerator = {
    info: { engine: 'openai', model: 'scripted', usesAi: true },
    write: async function* () {
      yield '';
    },
    converse: async function* (conversation) {
      const content = conversation.messages[0]!.content;
      asked.push(conversation.system + content);
      if (content.includes('UNREACHABLE')) throw new Error('connect ECONNREFUSED');
      if (content.startsWith('<trial_description>')) {
        yield '{"criteria":[{"definition":"Adults with type 2 diabetes","type":"critical_inclusion"},';
        yield '{"definition":"Dialysis","type":"non_critical_exclusion"}]}';
        return;
      }
      const ids = [...content.matchAll(/- id (\S+)/g)].map((m) => m[1]);
      yield JSON.stringify({
        criteria: [
          { id: ids[0], verdict: 'met', evidence: 'Type 2 diabetes mellitus since 2015.', explanation: 'Diabetes tipo 2 desde 2015.' },
          { id: ids[1], verdict: 'unclear', evidence: '' },
        ],
        explanation: 'Cumpre a inclusão; diálise não referida.',
      });
    },
  };
  beforeAll(async () => {
    t = await createTestApp({}, { textGenerator: model });
  });
  afterAll(() => t.close());

  it('generates criteria and screens with the model, paying a credit per patient, and refuses without credits', async () => {
    const u = await createUser(t, { language: 'pt' });
    const headers = bearer(await login(t, u.email, u.password));
    const space = (await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'S' } } })).json()
      .research_space;
    const base = `/v1/research_spaces/${space.id}`;
    const trial = (
      await t.app.inject({ method: 'POST', url: `${base}/trials`, headers, payload: { trial: { name: 'T', description: 'Adults with T2D; no dialysis.' } } })
    ).json().trial;
    const generated = (await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/criteria/generate`, headers })).json();
    expect(generated).toMatchObject({ engine: 'openai', criteria: [{ definition: 'Adults with type 2 diabetes' }, { type: 'non_critical_exclusion' }] });
    const upload = form([{ name: 'a.pdf', data: eligible }]);
    await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...headers, ...upload.headers }, payload: upload.payload });

    const refused = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers });
    expect(refused.statusCode).toBe(402);
    await grantCredits(t.ctx.db, { ownerUserId: u.id }, 1);
    const started = (await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers })).json().screening;
    expect(started.engine).toBe('openai');
    expect((await waitForScreening(t, headers, `${base}/trials/${trial.id}/screenings/${started.id}`)).status).toBe('completed');
    const [result] = (await t.app.inject({ method: 'GET', url: `${base}/results`, headers })).json().results;
    expect(result).toMatchObject({
      pre_evaluation: 'possible',
      criteria_met: 1,
      status: 'requires_review',
      explanation: 'Cumpre a inclusão; diálise não referida.',
      engine: 'openai',
    });
    // Each criterion keeps the model's own reason; one it gave none for has none.
    expect(result.criteria.map((c: { explanation?: string }) => c.explanation)).toEqual(['Diabetes tipo 2 desde 2015.', undefined]);
    // The documents went to the model as delimited data, with the answer asked in the user's language.
    expect(asked.at(-1)).toContain('<patient_documents>');
    expect(asked.at(-1)).toContain('European Portuguese');
    expect((await t.app.inject({ method: 'GET', url: '/v1/credits', headers })).json().credits.balance).toBe(0);
  });

  it('falls back to the description when the model fails, and refunds a patient it could not screen', async () => {
    const u = await createUser(t, { language: 'en' });
    const headers = bearer(await login(t, u.email, u.password));
    await grantCredits(t.ctx.db, { ownerUserId: u.id }, 2);
    const space = (await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'S2' } } })).json()
      .research_space;
    const base = `/v1/research_spaces/${space.id}`;
    const trial = (
      await t.app.inject({
        method: 'POST',
        url: `${base}/trials`,
        headers,
        payload: { trial: { name: 'T2', description: 'UNREACHABLE\nInclusion criteria:\n- Adults with type 2 diabetes' } },
      })
    ).json().trial;
    const generated = (await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/criteria/generate`, headers })).json();
    expect(generated).toMatchObject({ engine: 'offline', criteria: [{ definition: 'Adults with type 2 diabetes', type: 'critical_inclusion' }] });

    const upload = form([{ name: 'a.pdf', data: pdf(['UNREACHABLE record', 'Type 2 diabetes mellitus since 2015.']) }]);
    await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...headers, ...upload.headers }, payload: upload.payload });
    const started = (await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers })).json().screening;
    const done = await waitForScreening(t, headers, `${base}/trials/${trial.id}/screenings/${started.id}`);
    expect(done).toMatchObject({ status: 'failed', error: expect.stringContaining('1 of 1 patients could not be screened') });
    expect((await t.app.inject({ method: 'GET', url: `${base}/results`, headers })).json().results).toEqual([]);
    const credits = (await t.app.inject({ method: 'GET', url: '/v1/credits', headers })).json().credits;
    expect(credits.balance).toBe(2);
    expect(credits.ledger.map((r: { reason: string }) => r.reason)).toEqual(expect.arrayContaining(['screening', 'screening_refund']));
  });
});
