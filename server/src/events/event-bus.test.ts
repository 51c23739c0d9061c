import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, usingPostgres, type TestApp } from '../test-support/test-app.js';
import pg from 'pg';
import { createLocalEventBus, createPostgresEventBus, eventSeal, type BusEvent } from './event-bus.js';

const next = (subscribe: (h: (e: BusEvent) => void) => () => void) =>
  new Promise<BusEvent>((resolve) => {
    const stop = subscribe((e) => {
      stop();
      resolve(e);
    });
  });

describe('the in-process event bus', () => {
  it('hands each event to the subscribers of its topic, until they stop', async () => {
    const bus = createLocalEventBus();
    const got: BusEvent[] = [];
    const stop = bus.subscribe('a', (e) => got.push(e));
    bus.subscribe('b', () => got.push({ wrong: true }));
    await bus.publish('a', { n: 1 });
    stop();
    await bus.publish('a', { n: 2 });
    expect(got).toEqual([{ n: 1 }]);
  });
});

const SECRET = 'a-secret-of-at-least-thirty-two-characters';

describe('sealed events', () => {
  it('open with the same secret only, and nothing altered opens', () => {
    const one = eventSeal(SECRET);
    const sealed = one.seal('{"text":"chest pain"}');
    expect(Buffer.from(sealed, 'base64').toString('latin1')).not.toContain('chest pain');
    expect(one.open(sealed)).toBe('{"text":"chest pain"}');
    expect(eventSeal('another-secret-of-thirty-two-characters').open(sealed)).toBeUndefined();
    const altered = Buffer.from(sealed, 'base64');
    altered[altered.length - 1]! ^= 1;
    expect(one.open(altered.toString('base64'))).toBeUndefined();
    expect(one.open('{"topic":"document:x","event":{"type":"delta"}}')).toBeUndefined();
  });
});

describe.runIf(usingPostgres())('the PostgreSQL event bus', () => {
  const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
  it('carries events between processes, in order, and refuses one NOTIFY cannot carry', async () => {
    const one = await createPostgresEventBus(process.env.TEST_DATABASE_URL!, SECRET, log);
    const two = await createPostgresEventBus(process.env.TEST_DATABASE_URL!, SECRET, log);
    try {
      const got: BusEvent[] = [];
      two.subscribe('document:x', (e) => got.push(e));
      const arrived = next((h) => two.subscribe('document:x', (e) => e.n === 9 && h(e)));
      for (let n = 0; n < 10; n++) await one.publish('document:x', { n, text: 'é'.repeat(100) });
      await arrived;
      expect(got.map((e) => e.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await expect(one.publish('document:x', { text: 'x'.repeat(9000) })).rejects.toThrow(/too large/);
      // Another role on the database NOTIFYing in clear text (a forged delta) reaches no subscriber.
      const forged: BusEvent[] = [];
      two.subscribe('document:forged', (e) => forged.push(e));
      const raw = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await raw.connect();
      await raw.query(`SELECT pg_notify('consultation_notes_events', $1)`, [
        JSON.stringify({ topic: 'document:forged', event: { type: 'delta', offset: 0, text: 'forged' } }),
      ]);
      await raw.end();
      await one.publish('document:forged', { marker: true });
      await new Promise((r) => setTimeout(r, 200));
      expect(forged).toEqual([{ marker: true }]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe.runIf(usingPostgres())('the active consultation, asked of another process', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, { sharingDatabaseOf: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('is answered afresh as soon as the consultation finishes on the first one', async () => {
    const u = await createUser(a);
    const headers = bearer(await login(a, u.email, u.password));
    const id = (
      await a.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    const status = async () => (await b.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers })).json();
    expect(await status()).toMatchObject({ active: true, id });
    await a.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    // Well inside the second the answer is otherwise kept: the finish reached the other process's cache.
    const started = Date.now();
    for (;;) {
      if ((await status()).active === false) break;
      if (Date.now() - started > 900) throw new Error('the other process still answers the finished consultation as active');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
