/**
 * A document, an answer of the assistant or a screening is done only when its engine finished it: every way an
 * OpenAI-compatible engine can stop early leaves it failed, with a code the app explains, and not paid for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineFailureSummary, guardedFetch } from '../../ai/engine-check.js';
import { createOpenAiGenerator } from '../../ai/openai-generator.js';
import { TextCutOff } from '../../ai/text-cut-off.js';
import { startFakeOpenAi, type Behaviour } from '../../test-support/fake-openai.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { grantCredits } from '../credits/service.js';
import { screenPatient } from '../research_spaces/screener.js';

const NOTE = '# Notes\n\nCough for a week. Works with volunteers as a basketball coach. Plan: rest and fluids.';
/** What the engine answers next; every request reads it. */
let next: Behaviour = { text: NOTE };

let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
let t: TestApp;
const engine = () =>
  createOpenAiGenerator({ baseUrl: fake.baseUrl, apiKey: 'k', model: 'm', temperature: 0, timeoutMs: 300, maxRetries: 0, fetch: guardedFetch() });
beforeAll(async () => {
  fake = await startFakeOpenAi(() => next);
  t = await createTestApp({}, { textGenerator: engine() });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function signedIn() {
  const u = await createUser(t, { language: 'en' });
  await grantCredits(t.ctx.db, { ownerUserId: u.id }, 5);
  return bearer(await login(t, u.email, u.password));
}
const balance = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/v1/credits', headers })).json().credits.balance as number;
const settled = () => Promise.allSettled([...t.ctx.background]);

async function finishedSession(headers: Record<string, string>) {
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'Cough for a week.' } });
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
  await settled();
  return id;
}
const mainDoc = async (headers: Record<string, string>, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document;

describe('a document is done only when the engine finished it', () => {
  const cases: [string, Behaviour, string][] = [
    ['its token limit (finish_reason length)', { text: NOTE.slice(0, 40), finishReason: 'length' }, 'engine_length_limit'],
    ['its content filter', { text: NOTE.slice(0, 40), finishReason: 'content_filter' }, 'engine_content_filter'],
    ['a stream closed early (no finish reason, no [DONE])', { text: NOTE.slice(0, 40), end: 'close' }, 'engine_stopped_early'],
    ['the engine dying mid-answer', { text: NOTE, chunks: 6, end: 'destroy', cutAfterChunks: 2 }, 'engine_stopped_early'],
    ['an error mid-answer', { text: NOTE, chunks: 6, errorMidStream: true, cutAfterChunks: 2 }, 'engine_stopped_early'],
    ['a stall past the timeout', { text: NOTE, chunks: 6, stall: true, cutAfterChunks: 2 }, 'engine_timed_out'],
    ['an engine that cannot be reached at all', { status: 401 }, 'generation_failed'],
  ];
  it.each(cases)('%s leaves it failed, not charged, its partial text an incomplete draft', async (_name, behaviour, code) => {
    const headers = await signedIn();
    next = behaviour;
    const id = await finishedSession(headers);
    const doc = await mainDoc(headers, id);
    expect(doc.status).toBe('failed');
    expect(doc.error_code).toBe(code);
    expect(doc.completed_at).not.toBeNull();
    // Nothing the engine wrote was taken for the note: no quality line, no evidence, and whatever came is a part.
    expect(doc.text.length).toBeLessThan(NOTE.length);
    expect(doc.evidence).toBeNull();
    expect(await balance(headers)).toBe(5);
    // Followers of the stream are told it failed.
    const stream = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main/stream`, headers });
    expect(stream.body).toContain('event: failed');
    expect(stream.body).not.toContain('event: done');
    // Nothing unfinished reaches the record system.
    const fhir = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir`, headers });
    expect(fhir.body).not.toContain('basketb');

    // Write again: a whole answer makes a done version, and that one is paid for.
    next = { text: NOTE };
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).statusCode).toBe(202);
    await settled();
    const again = await mainDoc(headers, id);
    expect(again.status).toBe('done');
    expect(again.error_code).toBeNull();
    expect(again.text).toContain(NOTE);
    expect(await balance(headers)).toBe(4);
  });

  it('a change request the engine did not finish fails the same way and keeps the previous version', async () => {
    const headers = await signedIn();
    next = { text: NOTE };
    const id = await finishedSession(headers);
    next = { text: 'Shorter: cou', finishReason: 'length' };
    const boundary = '----cutoff';
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="requested_changes"\r\n\r\n${JSON.stringify({ text: 'Shorter.' })}\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(202);
    await settled();
    const doc = await mainDoc(headers, id);
    expect(doc).toMatchObject({ version: 2, status: 'failed', error_code: 'engine_length_limit' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main?version=1`, headers })).json().generated_document
        .status,
    ).toBe('done');
    expect(await balance(headers)).toBe(4);
  });

  it('POST /generate answers a cut-off with its code and no text, and refunds it', async () => {
    const headers = await signedIn();
    next = { text: 'Atestado: o doente esteve', finishReason: 'length' };
    const res = await t.app.inject({ method: 'POST', url: '/generate', headers, payload: { data: 'Cough.', document: 'sick_leave_certificate' } });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.code).toBe('engine_length_limit');
    expect(res.body).not.toContain('esteve');
    expect(await balance(headers)).toBe(5);
  });
});

describe('the assistant and the screening are held to the same rule', () => {
  it('an assistant reply cut off is not kept, fails the run and is refunded', async () => {
    const headers = await signedIn();
    next = { text: 'The maximum dose of paracetamol is', finishReason: 'length' };
    const asked = (
      await t.app.inject({ method: 'POST', url: '/assistant', headers, payload: { message: 'Max paracetamol dose?', assistant_key: 'clinical_questions' } })
    ).json();
    await settled();
    const run = (
      await t.app.inject({
        method: 'GET',
        url: `/assistant/run?assistant_key=${asked.assistant_key}&thread_key=${asked.thread_key}&run_key=${asked.run_key}`,
        headers,
      })
    ).json();
    expect(run.status).toBe('failed');
    expect(run.error).toBe('The AI engine stopped before finishing (it reached its length limit).');
    expect(run.error_code).toBe('engine_length_limit');
    expect(run.messages.map((m: { role: string }) => m.role)).toEqual(['user']);
    expect(await balance(headers)).toBe(5);
  });

  it('a screening answer cut off fails the patient with a clear reason instead of a guessed verdict', async () => {
    next = { text: '{"criteria":[{"id":"age","label":"included","sentence_ids":[0]}', finishReason: 'length' };
    const criteria = [{ id: 'age', definition: 'Age 18 or over', type: 'critical_inclusion' as const, needsReview: false }];
    const failure = await screenPatient(engine(), criteria, 'The patient is 54 years old.', 'en').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(TextCutOff);
    expect(engineFailureSummary(failure)).toBe('The AI engine stopped before finishing (it reached its length limit).');
    next = { text: '{"criteria":[{"id":"age","label":"included","sentence_ids":[0]}]}', end: 'close' };
    expect(await screenPatient(engine(), criteria, 'The patient is 54 years old.', 'en').catch((err: unknown) => (err as TextCutOff).reason)).toBe(
      'ended_early',
    );
  });
});
