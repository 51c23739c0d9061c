import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import type { App } from './context.js';
import { registerRequestIds, requestIdMixin, requestIdOptions } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Line = { reqId?: string; msg?: string; [key: string]: unknown };
const parse = (lines: string[]): Line[] => lines.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Line);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t.close());

describe('the request id', () => {
  it('is made (a UUID) when the client sends none, answered in X-Request-Id and on every log line of the request', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/livez' });
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const lines = parse(t.logs).filter((l) => l.reqId === id);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });

  it("keeps a proxy's sane id, so one id follows the request through both logs", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/livez', headers: { 'x-request-id': 'lb-7f3a.01_x' } });
    expect(res.headers['x-request-id']).toBe('lb-7f3a.01_x');
    expect(parse(t.logs).some((l) => l.reqId === 'lb-7f3a.01_x' && l.msg === 'request completed')).toBe(true);
  });

  it('replaces an id that is too long or could forge log content', async () => {
    for (const bad of ['a'.repeat(65), 'two words', 'x"}{"level":60', '', '../../etc', 'id\u0007']) {
      const res = await t.app.inject({ method: 'GET', url: '/livez', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('is on error answers too, and in a server error body for the user to quote to support', async () => {
    const user = await createUser(t);
    const auth = bearer(await login(t, user.email, user.password));
    const send = t.ctx.mailer.send;
    t.ctx.mailer.send = () => Promise.reject(new Error('smtp down'));
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/support',
        headers: { ...auth, 'x-request-id': 'support-case-42' },
        payload: { subject: 'Help me', message: 'Something is broken here.' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.headers['x-request-id']).toBe('support-case-42');
      expect(res.json().error).toEqual({ code: 'internal_error', message: 'Internal server error', request_id: 'support-case-42' });
      const lines = parse(t.logs).filter((l) => l.reqId === 'support-case-42');
      expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'unhandled error', 'request completed']));
    } finally {
      t.ctx.mailer.send = send;
    }
    // A refusal is the client's own doing: no id in its body (the header has it).
    const missing = await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/00000000-0000-4000-8000-000000000000', headers: auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(UUID);
    expect(missing.json().error.request_id).toBeUndefined();
  });
});

describe("the request id on lines logged with the app's own logger", () => {
  it('reaches lines from the handler and from background work the request started, not from work outside requests', async () => {
    const logs: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, cb) => (logs.push(String(chunk)), cb()) });
    // The same logger set-up as app.ts, on a bare app with one route.
    const app = Fastify({ logger: { level: 'info', stream, mixin: requestIdMixin }, ...requestIdOptions }) as unknown as App; // the routes below use no schemas
    registerRequestIds(app);
    let background: Promise<void> | undefined;
    app.post('/work', async (request) => {
      app.log.info('in the handler');
      request.log.info('through request.log');
      background = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => app.log.info('after the answer'));
      return { ok: true };
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'POST', url: '/work', headers: { 'x-request-id': 'rq-1' }, payload: { some: 'body' } });
      expect(res.statusCode).toBe(200);
      await background;
      app.log.info('outside any request');
      const lines = parse(logs);
      const of = (msg: string) => lines.filter((l) => l.msg === msg);
      expect(of('in the handler').map((l) => l.reqId)).toEqual(['rq-1']);
      expect(of('after the answer').map((l) => l.reqId)).toEqual(['rq-1']);
      // Bound once by Fastify, not twice.
      expect(logs.find((l) => l.includes('through request.log'))?.match(/"reqId"/g)).toHaveLength(1);
      expect(of('outside any request')[0]?.reqId).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
