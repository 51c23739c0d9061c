/**
 * The API's description is complete: GET /v1/openapi.json is an OpenAPI 3.1 document in which every route of the
 * app appears (but the ones hidden on purpose, listed below with why) and every operation says what it answers
 * on success and on a client error; the reading page loads under the app's Content-Security-Policy.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

/** Routes left out of the description on purpose. */
const HIDDEN: Record<string, string> = {
  'OPTIONS *': 'CORS preflight answered by @fastify/cors for every path, not an operation',
  'GET /v1/openapi.json': 'the description itself',
  'GET /v1/docs': 'the page that reads the description',
  'GET /v1/docs/json': "the page's own copy of the description",
  'GET /v1/docs/yaml': "the page's own copy of the description, in YAML",
  'GET /v1/docs/static/*': "the page's scripts and styles",
  'GET /v1/docs/static/index.html': 'redirects to the page',
  'GET /v1/docs/static/swagger-initializer.js': "the page's start-up script",
};

/** Probes take no input and no token: they cannot be asked wrongly, so they declare no client error. */
const NO_CLIENT_ERROR: Record<string, string> = {
  'GET /healthz': 'a probe: 200 or 503, nothing a client can get wrong',
  'GET /livez': 'a probe: 200 while the process answers at all',
  'GET /readyz': 'a probe: 200 or 503 with the check that failed',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Operation = {
  operationId?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
  tags?: string[];
};
type Document = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, { type: string; scheme?: string }> };
  tags?: { name: string }[];
};

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(async () => t?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, op: item[m] as Operation })),
  );

/** Fastify's `/a/:id` and `/a/*` as OpenAPI writes them. */
const asOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');

describe('GET /v1/openapi.json', () => {
  it('validates against the OpenAPI 3.1 schema (an independent validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? [], 'validation errors').toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is an OpenAPI 3.1 document with info, the bearer scheme, tags and the error schema', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.info.description).toContain('Bearer');
    expect(doc.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components?.schemas?.Error).toBeTruthy();
    const tagNames = new Set(doc.tags?.map((tag) => tag.name));
    for (const { key, op } of operations()) {
      expect(op.tags?.length, `${key} has a tag`).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(tagNames.has(tag), `${key}'s tag ${tag} is listed`).toBe(true);
    }
  });

  it('is well formed: paths start with /, templated parameters are declared, responses have descriptions, refs resolve', () => {
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components?.schemas?.[ref!], `schema ${ref}`).toBeTruthy();
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const method of Object.keys(item)) expect(METHODS as readonly string[]).toContain(method);
      for (const m of METHODS) {
        const op = item[m] as (Operation & { parameters?: { in: string; name: string; required?: boolean }[] }) | undefined;
        if (!op) continue;
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        for (const name of templated) expect(inPath, `${m} ${path} declares {${name}}`).toContain(name);
        for (const p of op.parameters ?? []) if (p.in === 'path') expect(p.required, `${m} ${path} ${p.name} required`).toBe(true);
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          expect(status, `${m} ${path}`).toMatch(/^([1-5](\d\d|XX)|default)$/);
          expect(response.description, `${m} ${path} ${status} has a description`).toBeTruthy();
        }
      }
    }
    const ids = operations()
      .map(({ op }) => op.operationId)
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares for every operation a success with its body (or an explicit empty one) and its client errors', () => {
    const lacking: string[] = [];
    for (const { key, op } of operations()) {
      const responses = Object.entries(op.responses ?? {});
      const success = responses.some(
        ([status, r]) => /^[23]/.test(status) && (status === '204' || /^3/.test(status) || Object.values(r.content ?? {}).some((media) => media.schema)),
      );
      const clientError = responses.some(([status]) => status.startsWith('4')) || key in NO_CLIENT_ERROR;
      const complete = success && clientError;
      if (!complete) lacking.push(`${key}${success ? '' : ' (no success body)'}${clientError ? '' : ' (no 4xx)'}`);
    }
    expect(lacking, 'operations without their answers').toEqual([]);
  });

  it('errors answer with the one error schema', () => {
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!/^4/.test(status) || !response.content) continue;
        expect(JSON.stringify(response.content), `${key} ${status}`).toContain('#/components/schemas/Error');
      }
    }
  });

  it('marks the operations that need a token', () => {
    const secured = (key: string) => operations().find((o) => o.key === key)?.op.security;
    expect(secured('GET /v1/consultation_sessions/{id}')).toEqual([{ bearer: [] }]);
    expect(secured('POST /v1/login')).toBeUndefined();
  });

  it('holds every route the app registered, but the ones hidden on purpose', () => {
    const described = new Set(operations().map(({ key }) => key));
    const registered = t.app.auditLog.routes;
    const gets = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url));
    const missing = registered
      // Fastify answers HEAD for every GET by itself.
      .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !HIDDEN[key] && !described.has(`${key.split(' ')[0]} ${asOpenApiPath(key.split(' ')[1]!)}`));
    expect([...new Set(missing)]).toEqual([]);
    // A hidden route that is gone, or now described, leaves the list.
    for (const key of Object.keys(HIDDEN)) {
      expect(
        registered.some((r) => `${r.method} ${r.url}` === key),
        `${key} is still registered`,
      ).toBe(true);
      expect(described.has(key), `${key} is hidden`).toBe(false);
    }
  });
});

describe('GET /v1/docs', () => {
  it('serves a page whose scripts and styles come from this server, under the app policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/v1/docs', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    // No inline script: the policy allows none but the web app's own, by hash.
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>\s*\S/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.startsWith('/v1/docs/'), asset).toBe(true);
      const res = await t.app.inject({ method: 'GET', url: asset });
      expect(res.statusCode, asset).toBe(200);
    }
    const init = await t.app.inject({ method: 'GET', url: '/v1/docs/static/swagger-initializer.js' });
    // The description it loads is this server's own, not a validator elsewhere.
    expect(init.body).toContain("resolveUrl('./json')");
    expect(init.body).toContain('validatorUrl: null');
    const json = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(json.json()).toMatchObject({ openapi: doc.openapi });
  });
});
