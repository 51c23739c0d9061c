import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggestedInputs } from '../../ai/offline-composer.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

describe('notes data heard in the consultation', () => {
  it('puts each measurement in its field, the other vitals in the examination and the medicines in the medication', () => {
    const transcript = [
      'Good morning.',
      'Your blood pressure is one hundred and fifty over ninety five.',
      'Heart rate eighty eight and the temperature is thirty seven point eight.',
      'Your HbA1c came back at seven point two percent.',
      'I take metformin 500 mg twice a day.',
      "We'll start amlodipine 5 mg once a day.",
    ].join('\n');
    const byField = Object.fromEntries(suggestedInputs(transcript, 'en').map((s) => [s.processor_input_id, s]));
    expect(byField.bloodpressure?.value).toContain('150/95');
    expect(byField.bloodpressure?.source).toContain('blood pressure');
    expect(byField.hemoglobinac?.value).toContain('7.2');
    expect(byField.physical_exam?.value).toMatch(/Heart rate: 88/);
    expect(byField.physical_exam?.value).toMatch(/37\.8/);
    expect(byField.medication?.value).toMatch(/metformin 500 mg/i);
    expect(byField.medication?.value).toMatch(/amlodipine 5 mg/i);
    // Nothing said, nothing suggested.
    expect(byField.colesterol).toBeUndefined();
    expect(suggestedInputs('Good morning. How are you today?', 'en')).toEqual([]);
  });

  it('reads the other languages', () => {
    const pt = suggestedInputs('A tensão arterial está em cento e quarenta por noventa.\nFaço omeprazol 20 mg de manhã.', 'pt');
    expect(pt.find((s) => s.processor_input_id === 'bloodpressure')?.value).toContain('140/90');
    expect(pt.find((s) => s.processor_input_id === 'medication')?.value).toMatch(/omeprazol 20 mg/i);
  });
});

describe('GET /v1/consultation_sessions/:id/suggested_inputs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers the owner from the consultation's transcript, and nobody else", async () => {
    const owner = await createUser(t);
    const headers = bearer(await login(t, owner.email, owner.password));
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${id}/transcription`,
      headers,
      payload: { transcription: 'Blood pressure 150/95 today.' },
    });
    const res = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/suggested_inputs`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().suggested_inputs).toEqual([
      { processor_input_id: 'bloodpressure', value: expect.stringContaining('150/95'), source: expect.stringContaining('150/95') },
    ]);

    const stranger = await createUser(t);
    const other = await t.app.inject({
      method: 'GET',
      url: `/v1/consultation_sessions/${id}/suggested_inputs`,
      headers: bearer(await login(t, stranger.email, stranger.password)),
    });
    expect(other.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/suggested_inputs` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/not-a-uuid/suggested_inputs', headers })).statusCode).toBe(400);
  });
});
