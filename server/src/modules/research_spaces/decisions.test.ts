/** A reviewer's decisions on screening results: kept through every new screening, with their author and time. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { textRecordPdf as pdf } from '../../../../tests/fixtures/patient-records.js';

const kidneysWell = pdf(['Patient 0042, seen in the nephrology clinic', 'Age: 58', 'eGFR 74 mL/min.']);
const kidneysFailing = pdf(['Patient 0077, seen in the nephrology clinic', 'Age: 61', 'eGFR 25 mL/min.']);

function form(name: string, data: Buffer, label: string) {
  const boundary = '----cn-decisions';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="label"\r\n\r\n${label}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

type Result = {
  id: string;
  patient_label: string;
  pre_evaluation: string;
  status: string;
  machine_status: string;
  decision: string | null;
  decision_note: string;
  decided_by: { id: string; name: string } | null;
  decided_at: string | null;
  decided_on_pre_evaluation: string | null;
  machine_changed_since_decision: boolean;
  criteria: { evidence: string }[];
};

describe('decisions on screening results', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function member(name: string, organizationId: string | null) {
    const u = await createUser(t, { name, organizationId, organizationRole: organizationId ? 'member' : null, language: 'pt' });
    return { ...u, headers: bearer(await login(t, u.email, u.password)) };
  }

  /** A shared space with one trial (eGFR < 30 as a critical exclusion) and two screened patients. */
  async function screenedSpace() {
    const [org] = await t.ctx.db.insert(organizations).values({ name: 'Hospital' }).returning();
    const ana = await member('Ana Lopes', org!.id);
    const rui = await member('Rui Nunes', org!.id);
    const space = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: ana.headers, payload: { research_space: { name: 'Nefrologia' } } })
    ).json().research_space;
    const base = `/v1/research_spaces/${space.id}`;
    const trial = (
      await t.app.inject({ method: 'POST', url: `${base}/trials`, headers: ana.headers, payload: { trial: { name: 'KID-1', description: '' } } })
    ).json().trial;
    const criterion = (
      await t.app.inject({
        method: 'POST',
        url: `${base}/trials/${trial.id}/criteria`,
        headers: ana.headers,
        payload: { criterion: { definition: 'eGFR < 30 mL/min', type: 'critical_exclusion', needs_review: false } },
      })
    ).json().criterion;
    for (const [file, data, label] of [
      ['a.pdf', kidneysWell, 'Doente 0042'],
      ['b.pdf', kidneysFailing, 'Doente 0077'],
    ] as const) {
      const f = form(file, data, label);
      expect((await t.app.inject({ method: 'POST', url: `${base}/patients`, headers: { ...ana.headers, ...f.headers }, payload: f.payload })).statusCode).toBe(
        201,
      );
    }
    const screen = async () => {
      const started = await t.app.inject({ method: 'POST', url: `${base}/trials/${trial.id}/screenings`, headers: ana.headers });
      expect(started.statusCode, started.body).toBe(202);
      for (let i = 0; i < 100; i++) {
        const s = (
          await t.app.inject({ method: 'GET', url: `${base}/trials/${trial.id}/screenings/${started.json().screening.id}`, headers: ana.headers })
        ).json().screening;
        if (s.status !== 'running') return expect(s.status).toBe('completed');
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('screening did not finish');
    };
    const results = async (headers = ana.headers) => {
      const list: Result[] = (await t.app.inject({ method: 'GET', url: `${base}/results?trial_id=${trial.id}`, headers })).json().results;
      return { well: list.find((r) => r.patient_label === 'Doente 0042')!, failing: list.find((r) => r.patient_label === 'Doente 0077')! };
    };
    const decide = (headers: Record<string, string>, id: string, result: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `${base}/results/${id}`, headers, payload: { result } });
    await screen();
    return { org: org!, ana, rui, base, trial, criterion, screen, results, decide };
  }

  it('a new screening keeps every approve, decline and note with its author, and says when its verdict changed', async () => {
    const s = await screenedSpace();
    const first = await s.results();
    expect([first.well.pre_evaluation, first.failing.pre_evaluation]).toEqual(['fit', 'not_approved']);
    expect(first.well).toMatchObject({ status: 'in_review', decision: null, decided_by: null, decided_at: null, machine_changed_since_decision: false });

    const before = Date.now();
    const approved = await s.decide(s.ana.headers, first.well.id, { decision: 'approved', note: '  Confirmed with the nephrologist. ' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().result).toMatchObject({
      status: 'approved',
      machine_status: 'in_review',
      decision: 'approved',
      decision_note: 'Confirmed with the nephrologist.',
      decided_by: { id: s.ana.id, name: 'Ana Lopes' },
      decided_on_pre_evaluation: 'fit',
      machine_changed_since_decision: false,
    });
    expect(Date.parse(approved.json().result.decided_at)).toBeGreaterThanOrEqual(before - 1000);
    // A colleague in the organization decides too; the older form of the call still works.
    expect((await s.decide(s.rui.headers, first.failing.id, { status: 'declined' })).json().result).toMatchObject({
      decision: 'declined',
      decided_by: { name: 'Rui Nunes' },
    });

    // The same screening again: nothing of the decisions moves.
    await s.screen();
    const again = await s.results();
    expect(again.well).toMatchObject({
      status: 'approved',
      decision: 'approved',
      decision_note: 'Confirmed with the nephrologist.',
      decided_by: { id: s.ana.id, name: 'Ana Lopes' },
      decided_at: approved.json().result.decided_at,
      machine_changed_since_decision: false,
    });
    expect(again.failing).toMatchObject({ status: 'declined', decision: 'declined', decided_by: { id: s.rui.id }, machine_changed_since_decision: false });

    // The criterion becomes an inclusion: the screening's verdicts turn over, the decisions stay and say so.
    await t.app.inject({
      method: 'PUT',
      url: `${s.base}/trials/${s.trial.id}/criteria/${s.criterion.id}`,
      headers: s.ana.headers,
      payload: { criterion: { definition: 'eGFR < 30 mL/min', type: 'critical_inclusion', needs_review: false } },
    });
    await s.screen();
    const changed = await s.results();
    expect(changed.well).toMatchObject({
      pre_evaluation: 'not_approved',
      status: 'approved',
      decision: 'approved',
      decided_on_pre_evaluation: 'fit',
      machine_changed_since_decision: true,
    });
    expect(changed.failing).toMatchObject({
      pre_evaluation: 'fit',
      status: 'declined',
      decision: 'declined',
      decided_on_pre_evaluation: 'not_approved',
      machine_changed_since_decision: true,
    });

    // A member removed from the organization stays the author of what they decided, and can no longer decide.
    await t.ctx.db.update(users).set({ organizationId: null, organizationRole: null }).where(eq(users.id, s.rui.id));
    expect((await s.results()).failing.decided_by).toEqual({ id: s.rui.id, name: 'Rui Nunes' });
    expect((await s.decide(s.rui.headers, changed.failing.id, { decision: 'approved' })).statusCode).toBe(404);

    // Deciding again on the new verdict clears the flag; undoing a decision with no note leaves no author.
    expect((await s.decide(s.ana.headers, changed.well.id, { decision: 'approved' })).json().result).toMatchObject({
      machine_changed_since_decision: false,
      decided_on_pre_evaluation: 'not_approved',
      decision_note: 'Confirmed with the nephrologist.',
    });
    expect((await s.decide(s.ana.headers, changed.failing.id, { decision: null })).json().result).toMatchObject({
      status: 'in_review',
      decision: null,
      decided_by: null,
      decided_at: null,
      machine_changed_since_decision: false,
    });
    // A note alone is kept, with its author, and survives a screening.
    expect((await s.decide(s.ana.headers, changed.failing.id, { note: 'Ask for a new eGFR.' })).json().result).toMatchObject({
      decision: null,
      decision_note: 'Ask for a new eGFR.',
      decided_by: { id: s.ana.id },
    });
    await s.screen();
    expect((await s.results()).failing).toMatchObject({ decision: null, decision_note: 'Ask for a new eGFR.', decided_by: { id: s.ana.id } });
  });

  it('the CSV carries the explanation, each criterion with its evidence, and the decision', async () => {
    const s = await screenedSpace();
    const { well, failing } = await s.results();
    await s.decide(s.ana.headers, well.id, { decision: 'approved', note: '=HYPERLINK("http://x")' });
    await s.decide(s.rui.headers, failing.id, { decision: 'declined' });
    await t.app.inject({
      method: 'PUT',
      url: `${s.base}/trials/${s.trial.id}/criteria/${s.criterion.id}`,
      headers: s.ana.headers,
      payload: { criterion: { definition: 'eGFR < 30 mL/min', type: 'critical_inclusion', needs_review: false } },
    });
    await s.screen();

    const csv = await t.app.inject({ method: 'GET', url: `${s.base}/results.csv?trial_id=${s.trial.id}`, headers: s.ana.headers });
    expect(csv.statusCode).toBe(200);
    const [head, ...rows] = csv.body.replace('\uFEFF', '').trim().split('\r\n');
    const cells = (line: string) => line.slice(1, -1).split('";"');
    expect(cells(head!)).toEqual([
      'Doente',
      'Ensaio',
      'Pré-avaliação',
      'Critérios satisfeitos',
      'Relevância',
      'Estado do rastreio',
      'Explicação',
      'Rastreado em',
      'Decisão',
      'Nota da decisão',
      'Decidido por',
      'Decidido em',
      'Rastreio alterado desde a decisão',
      'eGFR < 30 mL/min (veredicto)',
      'eGFR < 30 mL/min (explicação)',
      'eGFR < 30 mL/min (evidência)',
    ]);
    expect(rows).toHaveLength(2);
    for (const row of rows.map(cells)) {
      expect(Number(row[4])).toBeGreaterThanOrEqual(0);
      expect(row[6]!.length).toBeGreaterThan(10);
      expect(row[14]).not.toBe('');
    }
    // The patient a critical criterion rules out comes last.
    const [b, a] = rows.map(cells);
    expect(a!.slice(0, 3)).toEqual(['Doente 0042', 'KID-1', 'Não aprovado']);
    expect(b!.slice(0, 3)).toEqual(['Doente 0077', 'KID-1', 'Apto']);
    expect(a!.slice(8, 11)).toEqual(['Aprovado', `'=HYPERLINK(""http://x"")`, 'Ana Lopes']);
    expect(a![12]).toBe('Sim');
    expect(b!.slice(8, 11)).toEqual(['Recusado', '', 'Rui Nunes']);
    expect(b![13]).toBe('Cumprido');
    expect(b![15]).toContain('eGFR 25');
  });

  it('refuses a malformed decision, and a result outside the spaces the member can see', async () => {
    const s = await screenedSpace();
    const { well } = await s.results();
    for (const result of [
      {},
      { decision: 'maybe' },
      { decision: 'approved', status: 'approved' },
      { note: 'x'.repeat(2001) },
      { note: 42 },
      { decision: 'approved', by: 'someone' },
    ]) {
      const refused = await s.decide(s.ana.headers, well.id, result);
      expect(refused.statusCode, JSON.stringify(result)).toBe(400);
    }
    expect(
      (await t.app.inject({ method: 'PUT', url: `${s.base}/results/${well.id}`, headers: s.ana.headers, payload: { decision: 'approved' } })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'PUT', url: `${s.base}/results/not-a-uuid`, headers: s.ana.headers, payload: { result: { decision: 'approved' } } }))
        .statusCode,
    ).toBe(400);
    expect((await t.app.inject({ method: 'PUT', url: `${s.base}/results/${well.id}`, payload: { result: { decision: 'approved' } } })).statusCode).toBe(401);

    // Another organization's member, and a result reached through another space, are not even told it exists.
    const [elsewhere] = await t.ctx.db.insert(organizations).values({ name: 'Elsewhere' }).returning();
    const outsider = await member('Eva Stranger', elsewhere!.id);
    expect((await s.decide(outsider.headers, well.id, { decision: 'declined' })).statusCode).toBe(404);
    const own = (
      await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers: outsider.headers, payload: { research_space: { name: 'Mine' } } })
    ).json().research_space;
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/v1/research_spaces/${own.id}/results/${well.id}`,
          headers: outsider.headers,
          payload: { result: { decision: 'declined' } },
        })
      ).statusCode,
    ).toBe(404);
    expect((await s.results()).well).toMatchObject({ decision: null, decided_by: null });
  });
});
