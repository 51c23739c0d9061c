import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /generate', () => {
  it('fills a template with data (offline composer), marking what is missing', async () => {
    const u = await createUser(t, { language: 'pt' });
    const headers = bearer(await login(t, u.email, u.password));
    const res = await t.app.inject({
      method: 'POST',
      url: '/generate',
      headers,
      payload: { data: { name: 'Maria', bp: '120/80' }, template: 'Doente: {{name}}\nTA: {{bp}}\nPeso: {{weight}}', temperature: 0.3 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ engine: 'composer', uses_ai: false });
    expect(res.json().text).toContain('Doente: Maria\nTA: 120/80\nPeso: [a preencher]');
    expect(res.json().text).toContain('sem IA');
  });

  it('validates its input', async () => {
    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    expect((await t.app.inject({ method: 'POST', url: '/generate', headers, payload: { data: {} } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/generate', headers, payload: { data: {}, template: 'x', temperature: 5 } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/generate', payload: { data: {}, template: 'x' } })).statusCode).toBe(401);
  });
});

describe('POST /generate for a document kind', () => {
  it('writes a selectable document on its own from the notes fields, with or without a layout', async () => {
    const u = await createUser(t, { language: 'en', name: 'Dr. Ana Lopes' });
    const headers = bearer(await login(t, u.email, u.password));
    const plain = await t.app.inject({
      method: 'POST',
      url: '/generate',
      headers,
      payload: { document: 'referral_letter', data: { text: 'Knee pain for months', medication: 'Ibuprofen' } },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().text).toContain('Referral letter');
    expect(plain.json().text).toContain('Knee pain for months');
    expect(plain.json().text).toContain('Ibuprofen');
    const laidOut = await t.app.inject({
      method: 'POST',
      url: '/generate',
      headers,
      payload: { document: 'clinical_summary', template: 'Summary by {{clinician}}: {{transcript}}', data: { text: 'Stable.' } },
    });
    expect(laidOut.json().text).toContain('Summary by Dr. Ana Lopes: Stable.');
    expect((await t.app.inject({ method: 'POST', url: '/generate', headers, payload: { document: 'nope', data: {} } })).statusCode).toBe(404);
  });
});
