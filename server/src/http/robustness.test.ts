import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundSettled, bearer, createOrganizationInvite, createUser, lastMailToken, login, uniqueEmail } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
let web: TestApp;
const INLINE = 'document.title="y"';
// A script with a src: its text never runs, so it must never be allowed by a hash.
const NOT_INLINE = 'document.title="z"';
beforeAll(async () => {
  t = await createTestApp({ MIN_CLIENT_VERSION: '0.0.20' });
  // A second app serving a small fake build, to check the static files and the SPA fallback.
  const dist = path.join(t.dataDir, 'fake-dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><title>x</title><script type="module" src="/assets/app-abc123.js">${NOT_INLINE}</script><script>${INLINE}</script></head><body></body></html>`,
  );
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'sw.js'), '// sw');
  web = await createTestApp({ WEB_DIST: dist, SENTRY_DSN: 'https://key@sentry.example.org/42' });
});
afterAll(async () => {
  await t.close();
  await web.close();
});

describe('bad input never makes a 500', () => {
  it.each([
    ['malformed JSON', '/v1/login', '{"user": {', 'invalid_json'],
    ['JSON that is not an object', '/v1/login', '[1,2]', 'invalid_request'],
    ['empty body', '/v1/signup', '', 'invalid_json'],
    ['a string body', '/v1/reset_password', '"hello"', 'invalid_request'],
  ])('%s → 400', async (_n, url, payload, code) => {
    const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe(code);
  });

  it('wrong types and overlong strings name the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email: ['x'], password: 'p'.repeat(10_000) } } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields).sort()).toEqual(['user.email', 'user.password']);
  });

  it('an unsupported content type → 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: '<user/>', headers: { 'content-type': 'application/xml' } });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('a body over the limit → 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) } } });
    expect(res.statusCode).toBe(413);
  });

  it('a too-short token in a path → 400, not 500', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/confirm_email/x' });
    expect(res.statusCode).toBe(400);
  });

  it('unknown paths → 404 JSON', async () => {
    for (const [method, url] of [
      ['GET', '/v1/nothing'],
      ['POST', '/v1/nothing'],
      ['GET', '/nothing'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});

describe('headers', () => {
  it('sends a content security policy and closes CORS by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps the opener only for the bookmarklet window, which another system opens', async () => {
    const paste = await web.app.inject({ method: 'GET', url: '/paste?to=https%3A%2F%2Fehr.example' });
    expect(paste.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(String(paste.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    const home = await web.app.inject({ method: 'GET', url: '/pasteboard' });
    expect(home.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('lets only the configured integration origins frame or open the app', async () => {
    const integrated = await createTestApp({ INTEGRATION_ORIGINS: 'https://ehr.hospital.pt' });
    try {
      const res = await integrated.app.inject({ method: 'GET', url: '/healthz' });
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self' https://ehr.hospital.pt");
      expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
      expect(res.headers['x-frame-options']).toBeUndefined();
    } finally {
      await integrated.close();
    }
  });

  it("lets index.html's own inline script run by its hash, and no other", async () => {
    const csp = String((await web.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy']);
    const scripts = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ');
    expect(scripts).toEqual(["'self'", `'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`]);
    expect(/script-src [^;]*unsafe-inline/.test(csp)).toBe(false);
  });

  it('lets the configured Sentry origin through connect-src', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/healthz' });
    expect(String(res.headers['content-security-policy'])).toContain('https://sentry.example.org');
  });

  it('flags outdated clients', async () => {
    const old = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'client-version': '0.0.9' } });
    const current = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'client-version': '0.0.20' } });
    expect(old.headers['x-client-deprecated']).toBe('true');
    expect(current.headers['x-client-deprecated']).toBeUndefined();
  });
});

describe('web app', () => {
  it('serves index.html for app pages, with the runtime settings as meta tags', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/settings/account', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<meta name="sentry-dsn" content="https://key@sentry.example.org/42">');
  });

  it('serves /index.html, which the service worker keeps, as the same page as every app address', async () => {
    // Asked for as the service worker asks (no text/html in Accept), compressed when the browser accepts it.
    const kept = await web.app.inject({ method: 'GET', url: '/index.html', headers: { accept: '*/*' } });
    expect(kept.statusCode).toBe(200);
    expect(kept.headers['cache-control']).toBe('no-cache');
    expect(kept.body).toContain('<meta name="sentry-dsn" content="https://key@sentry.example.org/42">');
    const page = await web.app.inject({ method: 'GET', url: '/settings/account', headers: { accept: 'text/html' } });
    expect(kept.body).toBe(page.body);
    const compressed = await web.app.inject({ method: 'GET', url: '/index.html', headers: { 'accept-encoding': 'br, gzip' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(page.body);
    // The policy allows the inline script of the page served, not of some other copy.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(kept.body)?.[1] ?? '';
    expect(String(kept.headers['content-security-policy'])).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
  });

  it('answers / with the page whatever the client accepts (curl, a load balancer, no Accept at all)', async () => {
    const page = await web.app.inject({ method: 'GET', url: '/settings/account', headers: { accept: 'text/html' } });
    for (const headers of [{ accept: '*/*', 'user-agent': 'curl/8.5.0' }, {}, { accept: 'application/json' }]) {
      const res = await web.app.inject({ method: 'GET', url: '/', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toBe(page.body);
    }
    expect((await web.app.inject({ method: 'GET', url: '/?from=bookmark' })).statusCode).toBe(200);
    const head = await web.app.inject({ method: 'HEAD', url: '/', headers: { accept: '*/*' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
    expect(head.body).toBe('');
    // Other addresses still need a browser's Accept: a script asking for a missing file gets a 404, not the page.
    expect((await web.app.inject({ method: 'GET', url: '/settings/account', headers: { accept: '*/*' } })).statusCode).toBe(404);
  });

  it('caches hashed assets for a year and revalidates the service worker', async () => {
    const asset = await web.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const sw = await web.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  it('never falls back to the page for API paths', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/v1/unknown', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});

describe('logs', () => {
  it('never contain passwords, session tokens or one-time tokens of request paths', async () => {
    const password = 'Very-Secret-Password-42';
    const email = uniqueEmail('logs');
    const { token: invitation } = await createOrganizationInvite(t, email);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      payload: { user: { name: 'Log Test', email, password, language: 'en' }, invitation_token: invitation },
    });
    const signupToken = signup.json().token as string;
    const session = await login(t, email, password);
    await t.app.inject({
      method: 'PUT',
      url: '/v1/account',
      headers: bearer(session),
      payload: { user: { current_password: password, password: `${password}-2` } },
    });
    await t.app.inject({ method: 'POST', url: '/v1/login', payload: { user: { email, password: 'Wrong-Password-99' } } });
    const other = await createUser(t);
    await t.app.inject({ method: 'POST', url: '/v1/reset_password', payload: { email: other.email } });
    await backgroundSettled(t);
    const resetToken = lastMailToken(t, other.email);
    await t.app.inject({ method: 'PATCH', url: `/v1/reset_password/${resetToken}`, payload: { password: 'abcdef', password_confirmation: 'abcdef' } });
    await t.app.inject({ method: 'PATCH', url: `/v1/confirm_email/${'a'.repeat(64)}` });

    const log = t.logs.join('');
    expect(log).toContain('/v1/reset_password/[redacted]');
    expect(log).toContain('/v1/confirm_email/[redacted]');
    for (const secret of [password, `${password}-2`, 'Wrong-Password-99', 'abcdef', signupToken, session, resetToken, invitation, 'a'.repeat(64)]) {
      expect(log).not.toContain(secret);
    }
  });
});
