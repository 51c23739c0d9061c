import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function finished() {
  const u = await createUser(t);
  const headers = bearer(await login(t, u.email, u.password));
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
  return { headers, url: `/v1/consultation_sessions/${id}/feedback` };
}

describe('consultation feedback', () => {
  it('stores the form, replaces it on resend and reads it back', async () => {
    const { headers, url } = await finished();
    const full = { doctor_satisfaction: 9, patient_satisfaction: 8, notes_quality: 4, editing_time: '1_5_min', comment: 'Good notes', share_anonymously: true };
    const sent = await t.app.inject({ method: 'POST', url, headers, payload: { feedback: full } });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().feedback).toMatchObject(full);
    await t.app.inject({ method: 'POST', url, headers, payload: { feedback: { doctor_satisfaction: 3 } } });
    const read = (await t.app.inject({ method: 'GET', url, headers })).json().feedback;
    expect(read).toMatchObject({ doctor_satisfaction: 3, patient_satisfaction: null, comment: null, share_anonymously: false });
  });

  it('refuses out-of-range values, unknown keys and other clinicians', async () => {
    const { headers, url } = await finished();
    for (const feedback of [
      {},
      { doctor_satisfaction: 11 },
      { doctor_satisfaction: -1 },
      { doctor_satisfaction: 5, editing_time: '1 hour' },
      { doctor_satisfaction: 5, notes_quality: 0 },
      { doctor_satisfaction: 5, x: 1 },
    ]) {
      const res = await t.app.inject({ method: 'POST', url, headers, payload: { feedback } });
      expect(res.statusCode, JSON.stringify(feedback)).toBe(400);
    }
    const other = await createUser(t);
    const otherHeaders = bearer(await login(t, other.email, other.password));
    expect((await t.app.inject({ method: 'POST', url, headers: otherHeaders, payload: { feedback: { doctor_satisfaction: 5 } } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers: otherHeaders })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers })).statusCode).toBe(404);
  });
});
