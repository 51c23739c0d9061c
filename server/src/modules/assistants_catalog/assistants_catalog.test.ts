import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function clinician(language = 'pt') {
  const u = await createUser(t, { language });
  return bearer(await login(t, u.email, u.password));
}
const catalog = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/assistants_catalog', headers }).then((r) => r.json());

describe('assistants catalogue', () => {
  it('lists every assistant by catalogue and section, starting from the clinician’s country', async () => {
    const headers = await clinician('de');
    const c = await catalog({ ...headers, 'accept-language': 'de' });
    expect(c.home_catalogue).toBe('de');
    expect(c.catalogues.map((x: { id: string }) => x.id)).toEqual(['international', 'pt', 'de', 'es']);
    expect(c.catalogues.find((x: { id: string }) => x.id === 'de').name).toBe('Deutschland');
    const byId = Object.fromEntries(c.assistants.map((a: { id: string }) => [a.id, a]));
    expect(byId.de_general_practice).toMatchObject({ catalogue: 'de', section: 'public', kind: 'note_taker', name: 'Hausärztliche Konsultation' });
    expect(byId.clinical_report).toMatchObject({ section: 'test', kind: 'report' });
    expect(c.custom_assistants).toEqual([]);
    // Nothing used yet: the country's public assistant comes first.
    expect(c.recommendations[0]).toBe('de_general_practice');
  });

  it('pins and unpins per clinician; recommendations follow use and skip what is pinned', async () => {
    const a = await clinician('pt');
    const b = await clinician('pt');
    expect((await t.app.inject({ method: 'PUT', url: '/v1/assistants_catalog/pins/dictation', headers: a })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'PUT', url: '/v1/assistants_catalog/pins/dictation', headers: a })).statusCode).toBe(204);
    expect((await catalog(a)).pins).toEqual(['dictation']);
    expect((await catalog(b)).pins).toEqual([]);
    expect((await t.app.inject({ method: 'PUT', url: '/v1/assistants_catalog/pins/nope', headers: a })).statusCode).toBe(404);

    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers: a, payload: { consultation_type_id: 'clinical_report' } });
    const after = await catalog(a);
    expect(after.recommendations[0]).toBe('clinical_report');
    expect(after.recommendations).not.toContain('dictation');
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/assistants_catalog/pins/dictation', headers: a })).statusCode).toBe(204);
    expect((await catalog(a)).pins).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/assistants_catalog' })).statusCode).toBe(401);
  });
});
