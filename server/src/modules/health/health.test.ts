import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { startTestS3 } from '../../test-support/s3-server.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t.close());

describe('the probes', () => {
  it('/livez answers while the process runs, without touching the database', async () => {
    const execute = t.ctx.db.execute;
    t.ctx.db.execute = (() => Promise.reject(new Error('database down'))) as unknown as typeof execute; // a stand-in for the query's answer, never awaited for rows
    try {
      const res = await t.app.inject({ method: 'GET', url: '/livez' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      t.ctx.db.execute = execute;
    }
  });

  it('/readyz is 200 when the database and the file store answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', file_store: 'ok' } });
  });

  it('/readyz is 503 naming the database when it fails, with no detail of the error', async () => {
    const execute = t.ctx.db.execute;
    t.ctx.db.execute = (() => Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:5432 password=hunter2'))) as unknown as typeof execute; // a stand-in for the query's answer, never awaited for rows
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', checks: { database: 'failed', file_store: 'ok' } });
      expect(res.body).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|hunter2/);
      // The operator finds the reason in the log, by the request's id.
      expect(t.logs.join('')).toContain('readiness check failed');
    } finally {
      t.ctx.db.execute = execute;
    }
  });

  it('/readyz gives up on a database that does not answer, within its timeout', async () => {
    const execute = t.ctx.db.execute;
    t.ctx.db.execute = (() => new Promise(() => undefined)) as unknown as typeof execute; // a stand-in for the query's answer, never awaited for rows
    try {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ database: 'timeout', file_store: 'ok' });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      t.ctx.db.execute = execute;
    }
  });

  it('/readyz is 503 naming the file store when its folder is unusable', async () => {
    const files = path.join(t.dataDir, 'files');
    rmSync(files, { recursive: true, force: true });
    writeFileSync(files, 'not a folder');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', file_store: 'failed' } });
    } finally {
      rmSync(files, { force: true });
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('are never rate-limited: a probe every instant stays answered', async () => {
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => t.app.inject({ method: 'GET', url: i % 2 ? '/livez' : '/readyz' })));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
  });

  it('/healthz keeps answering as before', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('the probes with an S3-compatible bucket', () => {
  it('/readyz checks the bucket: 200 while it answers, 503 file_store once it is gone', async () => {
    const s3 = await startTestS3();
    const app = await createTestApp(s3.env('ready/'));
    let s3Closed = false;
    try {
      expect((await app.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok', checks: { database: 'ok', file_store: 'ok' } });
      await s3.close();
      s3Closed = true;
      const res = await app.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ database: 'ok', file_store: expect.stringMatching(/^(failed|timeout)$/) });
      expect(res.body).not.toContain('127.0.0.1');
    } finally {
      await app.close();
      if (!s3Closed) await s3.close();
    }
  }, 120_000);
});
