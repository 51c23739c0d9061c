/**
 * Requests whose client goes away before the answer is complete, over a real connection (Fastify runs no
 * onResponse for them): each is still recorded, once, with the outcome `client_disconnected`.
 */
import http from 'node:http';
import net from 'node:net';
import { asc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextGenerator } from '../ai/text-generator.js';
import { auditEvents } from '../db/schema.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

/** A generator that says when it starts, writes a first part, then waits until the test lets it finish. */
let release: () => void = () => undefined;
let generating: () => void = () => undefined;
let started = new Promise<void>((resolve) => (generating = resolve));
const generator: TextGenerator = {
  info: { engine: 'composer', usesAi: false },
  async *write() {
    generating();
    yield 'Chest pain since Tuesday. ';
    await new Promise<void>((resolve) => (release = resolve));
    yield 'Plan: ECG.';
  },
};

let t: TestApp;
let port: number;
let token: string;
beforeAll(async () => {
  t = await createTestApp({}, { textGenerator: generator, transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'words' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
  const u = await createUser(t, { language: 'en' });
  token = await login(t, u.email, u.password);
});
afterAll(async () => {
  release();
  await t.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function lastId() {
  await t.app.auditLog.flush();
  const rows = await t.ctx.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(asc(auditEvents.id));
  return rows.at(-1)?.id ?? 0;
}
async function eventsSince(id: number) {
  await t.app.auditLog.flush();
  return t.ctx.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(asc(auditEvents.id));
}
/** Polls until `check` holds (the server finishes its side after the client has gone). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (check(value)) return value;
    await sleep(50);
  }
  return read();
}
async function newConsultation() {
  const headers = bearer(token);
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'the patient says' } });
  return id;
}
/** Sends a raw request and closes the connection at once, or once `until` is in what came back. */
function rawRequest(text: string, closeWhen?: string): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(text);
      if (!closeWhen) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('data', (d: Buffer) => {
      received += d.toString('utf8');
      if (closeWhen && received.includes(closeWhen)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', () => undefined);
  });
}

describe('a client that disconnects early', () => {
  it('a PUT whose client left at once is recorded, once, whether the server carried it out or gave up', async () => {
    const id = await newConsultation();
    const since = await lastId();
    const body = JSON.stringify({ transcription: 'changed by a client that left' });
    await rawRequest(
      `PUT /v1/consultation_sessions/${id}/transcription HTTP/1.1\r\nHost: clinic.test\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const rows = (
      await until(
        () => eventsSince(since),
        (r) => r.length >= 1,
      )
    ).filter((r) => r.action === 'update');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'update', resourceType: 'transcript', resourceId: id, actorKind: 'user' });
    await sleep(300);
    expect((await eventsSince(since)).filter((r) => r.action === 'update')).toHaveLength(1);
    // Depending on when the server noticed: the change made and its 200 being sent (or just sent), or the request
    // dropped before its handler ran (a sign-in check still waiting on the database when the connection went).
    const text = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/transcription`, headers: bearer(token) })).json()
      .transcription as string;
    const outcome = [rows[0]!.outcome, rows[0]!.statusCode];
    if (text === 'changed by a client that left')
      expect([
        ['client_disconnected', 200],
        ['success', 200],
      ]).toContainEqual(outcome);
    else expect(outcome).toEqual(['client_disconnected', null]);
  });

  it('a document stream read in part is recorded once, as disconnected with the status being sent', async () => {
    const id = await newConsultation();
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers: bearer(token) })).statusCode).toBe(
      202,
    );
    const since = await lastId();
    const got = await rawRequest(
      `GET /v1/consultation_sessions/${id}/generated_documents/main/stream HTTP/1.1\r\nHost: clinic.test\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      'event: delta',
    );
    expect(got).toContain('Chest pain since Tuesday');
    const rows = await until(
      () => eventsSince(since),
      (r) => r.length >= 1,
    );
    expect(rows.map((r) => [r.action, r.resourceType, r.resourceId, r.extraIds, r.outcome, r.statusCode])).toEqual([
      ['read', 'generated_document', id, { document: 'main' }, 'client_disconnected', 200],
    ]);
    // The document is finished after the client left: nothing more is recorded for the stream.
    release();
    await until(
      async () =>
        (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers: bearer(token) })).json()
          .generated_document.status as string,
      (status) => status === 'done',
    );
    expect((await eventsSince(since)).filter((r) => r.resourceType === 'generated_document' && r.id !== rows[0]!.id && r.outcome !== 'success')).toEqual([]);
  });

  /** Sends the request, closes the connection once the server is generating, and waits until the server saw it close. */
  async function leaveDuringGeneration() {
    started = new Promise<void>((resolve) => (generating = resolve));
    const payload = JSON.stringify({ data: { text: 'Knee pain' }, template: 'Notes: {{text}}' });
    const req = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/generate',
      headers: { ...bearer(token), 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    req.on('error', () => undefined);
    req.end(payload);
    await started;
    req.destroy();
    const connections = () => new Promise<number>((resolve) => t.app.server.getConnections((_err, n) => resolve(n)));
    await until(connections, (n) => n === 0);
  }

  it('a request whose client left before any answer is recorded with the answer the server settled on afterwards', async () => {
    const since = await lastId();
    await leaveDuringGeneration();
    // The generation is still running: nothing is recorded until it ends (the event would lack its status).
    await sleep(200);
    expect(await eventsSince(since)).toEqual([]);
    release();
    const rows = await until(
      () => eventsSince(since),
      (r) => r.length >= 1,
    );
    expect(rows.map((r) => [r.actorKind, r.action, r.resourceType, r.outcome, r.statusCode])).toEqual([
      ['user', 'execute', 'generation', 'client_disconnected', 200],
    ]);
    await sleep(200);
    expect(await eventsSince(since)).toHaveLength(1);
  });

  it('a request that does not settle on an answer within seconds of its client leaving is recorded without a status, once', async () => {
    const since = await lastId();
    await leaveDuringGeneration();
    const rows = await until(
      () => eventsSince(since),
      (r) => r.length >= 1,
    );
    expect(rows.map((r) => [r.actorKind, r.action, r.resourceType, r.outcome, r.statusCode])).toEqual([
      ['user', 'execute', 'generation', 'client_disconnected', null],
    ]);
    // The generation ends later: its answer adds nothing.
    release();
    await sleep(300);
    expect(await eventsSince(since)).toHaveLength(1);
  });

  it('a complete answer over a real connection is recorded once, as a success', async () => {
    const id = await newConsultation();
    const since = await lastId();
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', path: `/v1/consultation_sessions/${id}/transcription`, headers: bearer(token) }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
    await sleep(200);
    const rows = await eventsSince(since);
    expect(rows.map((r) => [r.action, r.resourceType, r.resourceId, r.outcome, r.statusCode])).toEqual([['read', 'transcript', id, 'success', 200]]);
  });
});
