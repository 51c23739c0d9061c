/**
 * What a hospital's reviewer checks first on every answer: nothing cacheable, no source code published,
 * nothing about a route's fields told to a stranger, no patient text in the log when the database refuses a
 * value, and text the database cannot hold refused with a clear 400 instead of a 500.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
let web: TestApp;
let dist: string;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const u = await createUser(t);
  headers = bearer(await login(t, u.email, u.password));
  dist = mkdtempSync(path.join(tmpdir(), 'cn-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
  // What the build's precompression writes beside each text file.
  writeFileSync(path.join(dist, 'assets', 'main-abc123.js.br'), brotliCompressSync('console.log(1)'));
  writeFileSync(path.join(dist, 'assets', 'main-abc123.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(path.join(dist, 'assets', 'main-abc123.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  web = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  await web.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('answers carrying patient data', () => {
  it('are never cached (Cache-Control: no-store), successes and failures alike', async () => {
    const start = await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } });
    const id = start.json().consultation_session.id;
    expect(start.headers['cache-control']).toBe('no-store');
    for (const url of [
      `/v1/consultation_sessions/${id}`,
      `/v1/consultation_sessions/${id}/transcription`,
      '/v1/consultation_sessions',
      '/v1/account',
      '/v1/consultation_sessions/00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/account' })).headers['cache-control']).toBe('no-store');
  });
});

describe('API answers', () => {
  it('are compressed for browsers that accept it (brotli, else gzip), plain for others, and stay uncached', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/v1/consultation_types', headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const plain = await t.app.inject({ method: 'GET', url: '/v1/consultation_types', headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await t.app.inject({ method: 'GET', url: '/v1/consultation_types', headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    // Small answers go as they are (nothing to gain), and what carries patient data is still never cached.
    const small = await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers: { ...headers, 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const detail = await t.app.inject({ method: 'GET', url: '/v1/account', headers: { ...headers, 'accept-encoding': 'br' } });
    expect(detail.headers['cache-control']).toBe('no-store');
  });
});

describe('the web app', () => {
  it('serves its scripts but never their source maps', async () => {
    expect((await web.app.inject({ method: 'GET', url: '/assets/main-abc123.js' })).statusCode).toBe(200);
    const map = await web.app.inject({ method: 'GET', url: '/assets/main-abc123.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  });

  it('sends the compressed copy to a browser that accepts it, the plain file to one that does not', async () => {
    const br = await web.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gz = await web.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');
    const plain = await web.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });
});

describe('a stranger', () => {
  it('learns nothing of a protected route’s fields: authentication comes before validation', async () => {
    for (const [method, url, payload] of [
      ['POST', '/v1/consultation_sessions', { wrong: true }],
      ['PUT', '/v1/consultation_sessions/not-a-uuid', { user_inputs: 'x' }],
      ['POST', '/v1/research_spaces', { nope: 1 }],
      ['PUT', '/v1/account', { d_user: 5 }],
    ] as const) {
      const res = await t.app.inject({ method, url, payload });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.fields, url).toBeUndefined();
    }
  });
});

describe('text the database cannot hold', () => {
  it('a NUL character anywhere is a 400 naming the field, and stores nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'Trial\u0000space' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_characters', fields: { 'research_space.name': 'invalid_characters' } });
    expect((await t.app.inject({ method: 'GET', url: '/v1/research_spaces', headers })).json().research_spaces).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions?x=%00', headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/assistants_catalog/pins/%00', headers })).statusCode).toBe(400);
  });

  it('a database error is logged without the values of its query', async () => {
    const marker = 'PATIENT-MARKER-7f3a Mrs Example has chest pain';
    const err = await t.ctx.db.execute(sql`select ${marker}::int`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain(marker);
    t.app.log.error({ err }, 'failed');
    const line = t.logs.at(-1)!;
    expect(line).toContain('22P02');
    expect(line).not.toContain('PATIENT-MARKER');
  });
});

describe('malformed uploads', () => {
  it('a truncated, boundary-less or garbled multipart body is a 400, not a 500', async () => {
    const start = await t.app.inject({
      method: 'POST',
      url: '/v1/consultation_sessions',
      headers,
      payload: { consultation_type_id: 'general_consultation', force: true },
    });
    const url = `/v1/consultation_sessions/${start.json().consultation_session.id}/audios`;
    const bodies: Array<[string, string]> = [
      [
        'multipart/form-data; boundary=xyz',
        '--xyz\r\nContent-Disposition: form-data; name="order"\r\n\r\n1\r\n--xyz\r\nContent-Disposition: form-data; name="audio_file"; filename="a.webm"\r\n\r\nabc',
      ],
      ['multipart/form-data', '--xyz\r\nContent-Disposition: form-data; name="order"\r\n\r\n1\r\n--xyz--'],
      ['multipart/form-data; boundary=xyz', '\u0000\u0001garbage garbage'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: nonsense\r\n\r\nx\r\n--xyz--\r\n'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="order"\r\n\r\n1\u0000\r\n--xyz--\r\n'],
    ];
    for (const [contentType, payload] of bodies) {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
      expect(res.statusCode, payload.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload.slice(0, 40)).toBeLessThan(500);
    }
  });
});
