import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultationSessions } from '../../db/schema.js';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
let dir: string;
let tone: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'cn-lease-'));
  tone = makeWebm(dir, 'tone', 1);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const DESKTOP = 'desktop-0123456789abcdef';
const PHONE = 'phone-0123456789abcdef00';
const TABLET = 'tablet-0123456789abcdef0';

async function consultation() {
  const u = await createUser(t);
  const headers = bearer(await login(t, u.email, u.password));
  const res = await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } });
  return { headers, id: res.json().consultation_session.id as string };
}
const as = (headers: Record<string, string>, device?: string) => (device ? { ...headers, 'x-device-id': device } : headers);
const record = (headers: Record<string, string>, id: string, device: string | undefined, body: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/recording`, headers: as(headers, device), payload: { platform: 'web', ...body } });
const heartbeat = (headers: Record<string, string>, id: string, device: string | undefined, nextOrder: unknown) =>
  t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/recording/heartbeat`, headers: as(headers, device), payload: { next_order: nextOrder } });
const release = (headers: Record<string, string>, id: string, device: string, nextOrder: number) =>
  t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/recording/release`, headers: as(headers, device), payload: { next_order: nextOrder } });
const upload = (headers: Record<string, string>, id: string, device: string, order: number) => {
  const m = multipartAudio(order, tone);
  return t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...as(headers, device), ...m.headers }, payload: m.payload });
};
const view = async (headers: Record<string, string>, id: string, device: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers: as(headers, device) })).json().consultation_session;

describe('one recorder per consultation', () => {
  it('a second device is refused, asks to take over, and records after the first let go, continuing its numbering', async () => {
    const { headers, id } = await consultation();
    const first = await record(headers, id, PHONE, { mobile: true });
    expect(first.statusCode).toBe(200);
    expect(first.json().consultation_session.recorder).toMatchObject({ this_device: true, mobile: true, next_order: 0 });
    expect((await upload(headers, id, PHONE, 0)).statusCode).toBe(201);

    // The desktop sees who records, and may not start a second recorder silently.
    expect((await view(headers, id, DESKTOP)).recorder).toMatchObject({ this_device: false, mobile: true, handover_requested: false });
    const refused = await record(headers, id, DESKTOP);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('recording_elsewhere');
    expect(refused.json().error.message).toContain('phone');

    // "Record here instead": noted, and the phone learns it from its next heartbeat.
    const asked = await record(headers, id, DESKTOP, { take_over: true });
    expect(asked.statusCode).toBe(202);
    expect(asked.json().consultation_session.recorder).toMatchObject({ this_device: false, handover_to_this_device: true });
    expect((await heartbeat(headers, id, PHONE, 2)).json()).toEqual({ recording_here: true, handover_requested: true });
    // Not before the phone let go.
    expect((await record(headers, id, DESKTOP, { take_over: true })).statusCode).toBe(202);
    expect((await upload(headers, id, PHONE, 1)).statusCode).toBe(201);
    expect((await release(headers, id, PHONE, 2)).statusCode).toBe(200);

    const granted = await record(headers, id, DESKTOP, { take_over: true });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().consultation_session.recorder).toMatchObject({ this_device: true, mobile: false, next_order: 2, handover_requested: false });
    expect((await heartbeat(headers, id, PHONE, 2)).json()).toEqual({ recording_here: false, handover_requested: false });
    expect((await upload(headers, id, DESKTOP, 2)).statusCode).toBe(201);
    expect((await view(headers, id, PHONE)).recorder).toMatchObject({ this_device: false, mobile: false });
  });

  it('a device that gives up waiting for the handover withdraws its request', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, PHONE, { mobile: true })).statusCode).toBe(200);
    expect((await record(headers, id, DESKTOP, { take_over: true })).statusCode).toBe(202);
    expect((await release(headers, id, DESKTOP, 0)).statusCode).toBe(200);
    expect((await heartbeat(headers, id, PHONE, 1)).json()).toEqual({ recording_here: true, handover_requested: false });
  });

  it('a recorder that went silent is replaced at once, after every part the server has or was told of', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, PHONE, { mobile: true })).statusCode).toBe(200);
    expect((await upload(headers, id, PHONE, 0)).statusCode).toBe(201);
    expect((await heartbeat(headers, id, PHONE, 4)).json().recording_here).toBe(true);
    await t.ctx.db
      .update(consultationSessions)
      .set({ recorderSeenAt: new Date(Date.now() - 60_000) })
      .where(eq(consultationSessions.id, id));
    const taken = await record(headers, id, TABLET);
    expect(taken.statusCode).toBe(200);
    expect(taken.json().consultation_session.recorder).toMatchObject({ this_device: true, next_order: 4 });
    expect((await heartbeat(headers, id, PHONE, 5)).json().recording_here).toBe(false);
  });

  it('uploads keep the recorder alive and the numbering ahead of what is stored', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, PHONE, { mobile: true })).statusCode).toBe(200);
    await t.ctx.db
      .update(consultationSessions)
      .set({ recorderSeenAt: new Date(Date.now() - 15_000) })
      .where(eq(consultationSessions.id, id));
    expect((await upload(headers, id, PHONE, 0)).statusCode).toBe(201);
    expect((await upload(headers, id, PHONE, 1)).statusCode).toBe(201);
    const [row] = await t.ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, id));
    expect(Date.now() - row!.recorderSeenAt!.getTime()).toBeLessThan(5_000);
    expect(row!.recorderNextOrder).toBe(2);
  });

  it('without a device id, recording works as before; heartbeats need one; counts are checked', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, undefined)).statusCode).toBe(200);
    expect((await view(headers, id, DESKTOP)).recorder).toBeNull();
    const noDevice = await heartbeat(headers, id, undefined, 1);
    expect(noDevice.statusCode).toBe(400);
    expect(noDevice.json().error.code).toBe('device_required');
    expect((await heartbeat(headers, id, 'short', 1)).statusCode).toBe(400);
    for (const bad of [-1, 1.5, '3', 2_000_000, null]) expect((await heartbeat(headers, id, PHONE, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    expect((await record(headers, id, PHONE, { take_over: 'yes' })).statusCode).toBe(400);
  });

  it('another account can neither see nor move the recorder', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, PHONE, { mobile: true })).statusCode).toBe(200);
    const other = await consultation();
    expect((await record(other.headers, id, DESKTOP, { take_over: true })).statusCode).toBe(404);
    expect((await heartbeat(other.headers, id, PHONE, 9)).statusCode).toBe(404);
    expect((await release(other.headers, id, PHONE, 9)).statusCode).toBe(404);
    expect((await view(headers, id, PHONE)).recorder).toMatchObject({ this_device: true, handover_requested: false, next_order: 0 });
  });

  it('finishing on another device counts the parts the recorder reported, so the notes wait for them', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, PHONE, { mobile: true })).statusCode).toBe(200);
    expect((await upload(headers, id, PHONE, 0)).statusCode).toBe(201);
    expect((await heartbeat(headers, id, PHONE, 3)).json().recording_here).toBe(true);
    const finished = await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers: as(headers, DESKTOP), payload: { parts: 1 } });
    expect(finished.json().consultation_session.expected_parts).toBe(3);
    // The phone learns the consultation ended, stops, and reports its final count: the notes wait for it too.
    expect((await heartbeat(headers, id, PHONE, 4)).json().recording_here).toBe(false);
    expect((await release(headers, id, PHONE, 4)).json().consultation_session.expected_parts).toBe(4);
    expect((await release(headers, id, PHONE, 2)).json().consultation_session.expected_parts).toBe(4);
  });

  it('a repeated finish writes the main document when nothing started it', async () => {
    const { headers, id } = await consultation();
    // Ended another way (a newer consultation's forced start): no document was started.
    await t.ctx.db
      .update(consultationSessions)
      .set({ status: 'finished', finishedAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(consultationSessions.id, id));
    const finish = () => t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers, payload: { parts: 0 } });
    const [a, b] = await Promise.all([finish(), finish()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const main = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers });
    expect(main.statusCode).toBe(200);
    expect(main.json().generated_document.version).toBe(1);
    const second = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main?version=2`, headers });
    expect(second.statusCode).toBe(404);
  });

  it('a finished consultation has no recorder', async () => {
    const { headers, id } = await consultation();
    expect((await record(headers, id, PHONE, { mobile: true })).statusCode).toBe(200);
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers, payload: { parts: 0 } });
    expect((await view(headers, id, PHONE)).recorder).toBeNull();
    expect((await record(headers, id, DESKTOP)).statusCode).toBe(409);
    expect((await heartbeat(headers, id, PHONE, 1)).json().recording_here).toBe(false);
  });
});
