import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../../ai/text-generator.js';
import { grantCredits } from '../credits/service.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const seen: { system: string; messages: { role: string; content: string }[] }[] = [];
const model: TextGenerator = {
  info: { engine: 'openai', model: 'test', usesAi: true },
  async *write() {
    yield '';
  },
  async *converse(conversation) {
    seen.push(conversation);
    yield `Answer ${conversation.messages.filter((m) => m.role === 'user').length}`;
  },
};

let ai: TestApp;
let offline: TestApp;
beforeAll(async () => {
  ai = await createTestApp({}, { textGenerator: model });
  offline = await createTestApp();
});
afterAll(async () => {
  await ai.close();
  await offline.close();
});

async function signedIn(t: TestApp, credits = 10) {
  const u = await createUser(t, { language: 'pt' });
  await grantCredits(t.ctx.db, { ownerUserId: u.id }, credits);
  return bearer(await login(t, u.email, u.password));
}

async function finished(t: TestApp, headers: Record<string, string>, q: { assistant_key: string; thread_key: string; run_key: string }) {
  await Promise.allSettled([...t.ctx.background]);
  return (
    await t.app.inject({ method: 'GET', url: `/assistant/run?assistant_key=${q.assistant_key}&thread_key=${q.thread_key}&run_key=${q.run_key}`, headers })
  ).json();
}

describe('assistant chat', () => {
  it('lists the assistants in the request language', async () => {
    const headers = await signedIn(ai);
    const res = await ai.app.inject({ method: 'GET', url: '/assistants', headers: { ...headers, 'accept-language': 'es' } });
    expect(res.json().assistants.map((a: { key: string }) => a.key)).toEqual(['clinical_questions', 'writing_helper']);
    expect(res.json().assistants[0].name).toBe('Preguntas clínicas');
    expect(res.json().available).toBe(true);
  });

  it('a question starts a run that completes with the reply; the thread keeps the conversation', async () => {
    const headers = await signedIn(ai);
    const first = await ai.app.inject({
      method: 'POST',
      url: '/assistant',
      headers,
      payload: { message: 'Dose máxima de paracetamol?', assistant_key: 'clinical_questions' },
    });
    expect(first.statusCode).toBe(202);
    const q1 = first.json();
    expect(q1).toMatchObject({ assistant_key: 'clinical_questions', status: 'queued' });
    expect(await finished(ai, headers, q1)).toMatchObject({ status: 'completed', messages: [{ role: 'user' }, { role: 'assistant', content: 'Answer 1' }] });
    expect(seen.at(-1)!.system).toContain('português europeu');

    const second = (
      await ai.app.inject({
        method: 'POST',
        url: '/assistant',
        headers,
        payload: { message: 'E em crianças?', assistant_key: 'clinical_questions', thread_key: q1.thread_key },
      })
    ).json();
    const state = await finished(ai, headers, second);
    expect(state.messages.map((m: { content: string }) => m.content)).toEqual(['Dose máxima de paracetamol?', 'Answer 1', 'E em crianças?', 'Answer 2']);
  });

  it('another user cannot read a conversation; bad input is refused', async () => {
    const headers = await signedIn(ai);
    const q = (await ai.app.inject({ method: 'POST', url: '/assistant', headers, payload: { message: 'Olá', assistant_key: 'writing_helper' } })).json();
    await Promise.allSettled([...ai.ctx.background]);
    const stranger = await signedIn(ai);
    expect(
      (
        await ai.app.inject({
          method: 'GET',
          url: `/assistant/run?assistant_key=writing_helper&thread_key=${q.thread_key}&run_key=${q.run_key}`,
          headers: stranger,
        })
      ).statusCode,
    ).toBe(404);
    expect((await ai.app.inject({ method: 'POST', url: '/assistant', headers, payload: { message: '', assistant_key: 'writing_helper' } })).statusCode).toBe(
      400,
    );
    expect((await ai.app.inject({ method: 'POST', url: '/assistant', headers, payload: { message: 'x', assistant_key: 'nope' } })).statusCode).toBe(400);
  });

  it('without an AI engine the run fails with a clear reason, and costs nothing', async () => {
    const headers = await signedIn(offline, 0);
    const q = (
      await offline.app.inject({ method: 'POST', url: '/assistant', headers, payload: { message: 'Olá', assistant_key: 'clinical_questions' } })
    ).json();
    const state = await finished(offline, headers, q);
    expect(state).toMatchObject({ status: 'failed', error: 'The assistant needs an AI engine, and none is configured on this server.' });
    expect((await offline.app.inject({ method: 'GET', url: '/assistants', headers })).json().available).toBe(false);
  });
});
