import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../ai/transcriber.js';
import { loadConfig } from '../config.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { until } from '../test-support/until.js';
import { parseAllowList } from './ip-allow-list.js';

let failing = false;
const transcriber: Transcriber = {
  info: { engine: 'openai', id: 'scripted', languages: ['en'] },
  transcribe: async () => {
    if (failing) throw new Error('engine down');
    return 'the patient has a cough';
  },
};

let t: TestApp;
/** Metrics allowed to a private network, behind a proxy the operator trusts. */
let lan: TestApp;
beforeAll(async () => {
  [t, lan] = await Promise.all([createTestApp({}, { transcriber }), createTestApp({ METRICS_ALLOW: '10.0.0.0/8, 2001:db8::/32', TRUST_PROXY: 'true' })]);
}, 300_000);
afterAll(async () => {
  await Promise.all([t.close(), lan.close()]);
});

const scrape = (app: TestApp, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

describe('GET /metrics', () => {
  it('gives loopback the Prometheus text: requests by route pattern and status class, queues, jobs, the process', async () => {
    await t.app.inject({ method: 'GET', url: '/livez' });
    const id = '6f1c2a4e-0000-4000-8000-00000000abcd';
    await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}` });
    await t.app.inject({ method: 'GET', url: '/v1/reset_password/some-secret-token-that-must-not-show' });
    const res = await scrape(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/livez",status_class="2xx"\} \d+$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/livez",status_class="2xx"\} \d+$/m);
    // The pattern, never the address as sent: no ids or tokens in a label.
    expect(text).toMatch(/route="\/v1\/consultation_sessions\/:id",status_class="4xx"/);
    expect(text).not.toContain(id);
    expect(text).not.toContain('some-secret-token');
    expect(text).toMatch(/^queue_jobs\{queue="transcription",state="pending"\} 0$/m);
    expect(text).toMatch(/^queue_jobs\{queue="document",state="generating"\} 0$/m);
    expect(text).toContain('# TYPE transcription_lag_seconds histogram');
    expect(text).toContain('# TYPE document_writing_seconds histogram');
    expect(text).toContain('# TYPE job_failures_total counter');
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts server errors in the 5xx class', async () => {
    const execute = t.ctx.db.execute;
    t.ctx.db.execute = (() => Promise.reject(new Error('down'))) as unknown as typeof execute; // a stand-in, never read for rows
    try {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
    } finally {
      t.ctx.db.execute = execute;
    }
    expect((await scrape(t)).body).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status_class="5xx"\} [1-9]\d*$/m);
  });

  it('is a plain 404 for any other address, the same as an address without a route', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/no-such-thing', remoteAddress: '192.0.2.7' });
    const refused = await scrape(t, '192.0.2.7');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: { code: 'not_found', message: 'No route for GET /metrics' } });
    expect(Object.keys(refused.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    expect(refused.body).not.toContain('http_requests_total');
  });

  it('is refused to a spoofed X-Forwarded-For (TRUST_PROXY off), and to anything that came through a proxy', async () => {
    expect((await scrape(t, '192.0.2.7', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(404);
    expect((await scrape(t, '192.0.2.7', { 'x-real-ip': '127.0.0.1' })).statusCode).toBe(404);
    // A proxy on this machine forwarding a stranger's request: the peer is loopback, the request is not its own.
    expect((await scrape(t, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(404);
    expect((await scrape(t, '127.0.0.1', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(404);
    expect((await scrape(t, '::1')).statusCode).toBe(200);
  });

  it('follows METRICS_ALLOW, with TRUST_PROXY on too: the TCP peer decides, never a forwarding header', async () => {
    expect((await scrape(lan, '10.1.2.3')).statusCode).toBe(200);
    expect((await scrape(lan, '::ffff:10.1.2.3')).statusCode).toBe(200);
    expect((await scrape(lan, '2001:db8::5')).statusCode).toBe(200);
    expect((await scrape(lan, '127.0.0.1')).statusCode).toBe(404);
    expect((await scrape(lan, '11.0.0.1')).statusCode).toBe(404);
    expect((await scrape(lan, '203.0.113.9', { 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(404);
    expect((await scrape(lan, '10.1.2.3', { 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(404);
  });
});

/** A series' value in the scrape (0 when absent). */
const seriesValue = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('the jobs in the metrics', () => {
  it('times the transcription lag and the writing of a document, and counts failed transcriptions', async () => {
    const before = (await scrape(t)).body;
    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-metrics-audio-'));
    const start = async () =>
      (await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })).json()
        .consultation_session.id as string;
    const upload = async (id: string) => {
      const m = multipartAudio(0, makeWebm(dir, 'tone', 1));
      expect(
        (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
          .statusCode,
      ).toBe(201);
    };
    const id = await start();
    await upload(id);
    await t.ctx.transcriptionQueue.drain();
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers, payload: { parts: 1 } });
    await until(
      'notes written',
      async () => (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers })).json().generated_document,
      (d) => d?.status === 'done',
    );
    const after = (await scrape(t)).body;
    expect(seriesValue(after, 'transcription_lag_seconds_count')).toBe(seriesValue(before, 'transcription_lag_seconds_count') + 1);
    expect(seriesValue(after, 'document_writing_seconds_count{outcome="done"}')).toBeGreaterThan(
      seriesValue(before, 'document_writing_seconds_count{outcome="done"}'),
    );

    failing = true;
    try {
      await upload(await start());
      const series = 'job_failures_total{queue="transcription",outcome="retry"}';
      await until(
        'a failed attempt counted',
        async () => seriesValue((await scrape(t)).body, series),
        (n) => n > seriesValue(before, series),
      );
      // The part waits for its next attempt: counted in its queue.
      expect(seriesValue((await scrape(t)).body, 'queue_jobs{queue="transcription",state="pending"}')).toBeGreaterThanOrEqual(1);
    } finally {
      failing = false;
    }
  }, 60_000);
});

describe('METRICS_ALLOW', () => {
  it('takes IPs and CIDR networks, and refuses anything else at start', () => {
    const list = parseAllowList('127.0.0.1, ::1, 10.0.0.0/8, fd00::/8');
    expect(list.check('10.200.0.1', 'ipv4')).toBe(true);
    expect(list.check('fd12::1', 'ipv6')).toBe(true);
    expect(list.check('192.168.0.1', 'ipv4')).toBe(false);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-metrics-config-'));
    expect(loadConfig({ DATA_DIR: dataDir }).metricsAllow).toBe('127.0.0.1,::1');
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.0/8/1', '300.1.1.1', '10.0.0.0/x']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, METRICS_ALLOW: bad })).toThrow(/METRICS_ALLOW/);
    }
  });
});
