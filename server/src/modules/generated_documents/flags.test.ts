import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import { runCommand } from '../../admin/commands.js';
import { organizations } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { until } from '../../test-support/until.js';
import { flagsOfComposerVersion, flagsOfHandEdit, flagsOfModelVersion, priorOf, requestedTerms, termsToCheck, withChecked } from './flags.js';

/** A model that invents a medicine and a dose the consultation never named, and keeps them through any change. */
const ai: TextGenerator = {
  info: { engine: 'openai', model: 'test', usesAi: true },
  async *write(req) {
    const extra = req.change?.instructions.includes('naproxen') ? ' Naproxen as needed.' : '';
    yield `# Notes\n\n## Subjective\nHeadache for two weeks, worse in the morning.\n\n## Plan\nStart topiramate 50 mg at night.${extra}\n`;
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { textGenerator: ai });
}, 120_000);
afterAll(() => t.close());

async function clinician() {
  const [org] = await t.ctx.db.insert(organizations).values({ name: 'Clínica' }).returning();
  await runCommand(t.ctx.db, t.ctx.config, 'grant-credits', { organization: org!.id, amount: '20' });
  const u = await createUser(t, { organizationId: org!.id, organizationRole: 'member' });
  return bearer(await login(t, u.email, u.password));
}

const url = (id: string, rest = '') => `/v1/consultation_sessions/${id}/generated_documents/main${rest}`;
type Doc = { version: number; status: string; text: string; evidence: { flagged: string[]; checked?: string[] } };

describe('the guard survives editing', () => {
  let headers: Record<string, string>;
  let id: string;
  const latest = async () => (await t.app.inject({ method: 'GET', url: url(id), headers })).json().generated_document as Doc;
  const change = async (requested: { markdown: string } | { text: string }) => {
    const boundary = '----flags';
    const res = await t.app.inject({
      method: 'POST',
      url: url(id, '/regenerate'),
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${JSON.stringify(requested)}\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(202);
    return until('version written', latest, (d) => d.status === 'done');
  };

  beforeAll(async () => {
    headers = await clinician();
    id = (await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })).json()
      .consultation_session.id;
    await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${id}/transcription`,
      headers,
      payload: { transcription: 'Patient: I have had a headache for two weeks, worse in the morning.' },
    });
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    await until('notes written', latest, (d) => d?.status === 'done');
  });

  it("keeps a model's invention flagged through a hand edit that keeps it, clears it when removed, and never flags the clinician's own words", async () => {
    const v1 = await latest();
    expect(v1.evidence.flagged.sort()).toEqual(['50', 'topiramate']);

    // Two words cut from the start: the invented medicine and dose are still in the text, so still flagged.
    const trimmed = await change({ markdown: v1.text.replace('# Notes\n\n', '') });
    expect(trimmed.evidence.flagged.sort()).toEqual(['50', 'topiramate']);

    // The clinician writes in a medicine of their own and removes the dose: theirs is not flagged, the dose clears.
    const own = await change({ markdown: trimmed.text.replace('topiramate 50 mg at night.', 'topiramate at night. Ibuprofen 400 mg if needed.') });
    expect(own.evidence.flagged).toEqual(['topiramate']);

    // A change the model makes keeps its invention flagged (the version it changes is no source) and does not flag
    // what the clinician asked for or wrote before.
    const changed = await change({ text: 'add naproxen as needed' });
    expect(changed.text).toContain('Naproxen');
    expect(changed.evidence.flagged.sort()).toEqual(['50', 'topiramate']);
  });

  it('asking to remove an invention the model keeps does not make it said; an edit from an older version keeps its flags', async () => {
    const kept = await change({ text: 'remove the topiramate' });
    expect(kept.text).toContain('topiramate');
    expect(kept.evidence.flagged).toContain('topiramate');
    // The clinician edits an older version after a newer one: what was ever flagged and is still there stays flagged.
    const v1 = (await t.app.inject({ method: 'GET', url: url(id, '?version=1'), headers })).json().generated_document as Doc;
    const fromOld = await change({ markdown: v1.text.replace('Headache', 'Headaches') });
    expect(fromOld.evidence.flagged.sort()).toEqual(['50', 'topiramate']);
    // A dose written against its unit is still a value to check.
    const tight = await change({ markdown: fromOld.text.replace('50 mg', '50mg') });
    expect(tight.evidence.flagged.sort()).toEqual(['50', 'topiramate']);
  });

  it('a letter that repeats what the notes invented is flagged too, and nothing flagged can be signed', async () => {
    const letter = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/referral_letter`, headers });
    expect(letter.statusCode).toBe(202);
    const written = await until(
      'letter written',
      async () =>
        (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/referral_letter`, headers })).json()
          .generated_document as Doc,
      (d) => d?.status === 'done',
    );
    expect(written.evidence.flagged).toContain('topiramate');
    const refused = await t.app.inject({ method: 'POST', url: url(id, '/sign'), headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('terms_to_check');
  });

  it('a confirmed term is no longer asked about, in this version and the next ones that keep it', async () => {
    const before = await latest();
    expect(before.evidence.flagged).toContain('topiramate');
    const confirm = (payload: object) => t.app.inject({ method: 'POST', url: url(id, '/checked'), headers, payload });
    // Terms the version does not flag are not taken; bad input is a 400, a missing version a 404.
    const done = await confirm({ version: before.version, terms: ['topiramate', 'warfarin'] });
    expect(done.statusCode).toBe(200);
    expect(done.json().generated_document.evidence).toMatchObject({ flagged: ['50'], checked: ['topiramate'] });
    expect((await confirm({ version: before.version, terms: [] })).statusCode).toBe(400);
    expect((await confirm({ version: before.version })).statusCode).toBe(400);
    expect((await confirm({ version: 999, terms: ['50'] })).statusCode).toBe(404);

    const edited = await change({ markdown: `${before.text}\nReview in two weeks.\n` });
    expect(edited.evidence.flagged).toEqual(['50']);
    expect(edited.evidence.checked).toEqual(['topiramate']);
  });

  it("another clinician can neither read nor confirm this document's flags", async () => {
    const other = await clinician();
    const res = await t.app.inject({ method: 'POST', url: url(id, '/checked'), headers: other, payload: { version: 1, terms: ['50'] } });
    expect(res.statusCode).toBe(404);
  });
});

describe('flags, as rules', () => {
  const none = priorOf([]);
  it('a hand edit keeps what was flagged in any earlier version and takes the rest as the clinician’s', () => {
    const prior = priorOf([{ sentences: [], flagged: ['topiramate', '50'] }, null, { sentences: [], flagged: [] }]);
    expect(flagsOfHandEdit(['Topiramate', 'ibuprofen'], prior)).toEqual({ flagged: ['Topiramate'], checked: [], clinician_terms: ['ibuprofen'] });
  });
  it('a model version skips the clinician’s terms and what they asked for, but never a term flagged before', () => {
    const prior = priorOf([{ sentences: [], flagged: ['topiramate'], clinician_terms: ['ibuprofen', 'topiramate'] }]);
    expect(prior.clinicianTerms).toEqual(['ibuprofen']);
    const model = flagsOfModelVersion(['Ibuprofen', 'naproxen', 'topiramate', '75'], prior, ['naproxen', 'topiramate']);
    expect(model.flagged).toEqual(['topiramate', '75']);
    expect(model.clinician_terms).toEqual(['ibuprofen', 'naproxen']);
    expect(flagsOfModelVersion(['amoxicillin'], none).flagged).toEqual(['amoxicillin']);
  });
  it('the composer carries what was flagged and adds nobody’s terms', () => {
    const prior = priorOf([{ sentences: [], flagged: ['amoxicillin'] }]);
    expect(flagsOfComposerVersion(['amoxicillin', '12'], prior)).toEqual({ flagged: ['amoxicillin'], checked: [], clinician_terms: [] });
  });
  it('a change asks for the terms it names that the text does not hold yet', () => {
    expect(requestedTerms(['naproxen', 'amoxicillin'], ['amoxicillin'])).toEqual(['naproxen']);
  });
  it('confirmations count only for flagged terms', () => {
    const confirmed = withChecked({ sentences: [], flagged: ['naproxen', '50'] }, ['NAPROXEN', 'unknown']);
    expect(confirmed.checked).toEqual(['NAPROXEN']);
    expect(termsToCheck(confirmed)).toEqual(['50']);
  });
});
