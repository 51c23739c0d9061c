/**
 * Hostile requests against every route the app registered (its own route table, not a list kept here): ids
 * that are not ids, path traversal, NUL characters, prototype keys, wrong types, huge and deeply nested bodies,
 * wrong content types, garbled multipart bodies, out-of-range numbers, someone else's ids and no or a forged
 * token. Two things must hold for every one of them: the answer is never a 5xx, and a refused request changes
 * no row. A body's fields are found the way an attacker finds them, from the validation errors of the owner's
 * own requests, so a new route or field is fuzzed without anyone listing it here.
 *
 * The figures (requests, 5xx, refused requests that changed data) are printed for SECURITY.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textRecordPdf } from '../../../tests/fixtures/patient-records.js';
import { organizations, users } from '../db/schema.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

/**
 * Tables a refused request may still write to, by design: the audit log records refused attempts, and the
 * sign-in back-off counts failures, the rate limits count requests. Every other table must be byte-for-byte the same
 * after a refusal.
 */
const BOOKKEEPING_TABLES = new Set([
  'audit_events',
  'login_failures',
  'login_known_sources',
  'login_backoff',
  'rate_limit_windows',
  'used_integration_tokens',
  '__drizzle_migrations',
]);

let t: TestApp;
let dir: string;
let owner: Record<string, string>;
let attacker: Record<string, string>;
/** A real value for each path parameter, belonging to the owner. */
const ids: Record<string, string> = {};
const stats = { requests: 0, serverErrors: [] as string[], changedByRefusal: [] as string[], refused: 0 };
let addressCounter = 0;

type Route = { method: string; url: string };
let routes: Route[] = [];

const PARAM_ATTACKS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '%00',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  '%F0%9F%92%A9%E2%80%AE',
  "1'%20OR%20'1'%3D'1",
  '-1',
];

/** Each request comes from its own address, so per-address rate limits do not turn the suite into a test of 429s. */
async function send(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
  addressCounter++;
  const res = await t.app.inject({ ...opts, remoteAddress: `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}` });
  stats.requests++;
  if (res.statusCode >= 500) stats.serverErrors.push(`${opts.method} ${opts.url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
  return res;
}

/** A digest of every row of every table but the bookkeeping ones. */
async function fingerprint(): Promise<string> {
  const tables = (await t.ctx.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: Array<{ table_name: string }> } | Array<{ table_name: string }>;
  const names = (Array.isArray(tables) ? tables : tables.rows).map((r) => r.table_name).filter((n) => !BOOKKEEPING_TABLES.has(n));
  const parts = names.map((n) => `select '${n}' as t, md5(coalesce(string_agg(md5(x::text), '' order by md5(x::text)), '')) as h from "${n}" x`);
  const result = (await t.ctx.db.execute(sql.raw(parts.join(' union all ')))) as unknown as
    | { rows: Array<{ t: string; h: string }> }
    | Array<{ t: string; h: string }>;
  return (Array.isArray(result) ? result : result.rows).map((r) => `${r.t}:${r.h}`).join(';');
}

async function settle() {
  while (t.ctx.background.size) await Promise.allSettled([...t.ctx.background]);
  await t.ctx.transcriptionQueue.drain();
  await t.ctx.ocrQueue.drain();
}

/** Sends a request that should be refused; a refusal that changed a row is recorded. */
async function attack(opts: InjectOptions & { url: string }, label: string): Promise<LightMyRequestResponse> {
  const mutating = opts.method !== 'GET' && opts.method !== 'HEAD';
  // Work an earlier accepted request started (a document being written) must not be mistaken for this one's.
  if (mutating) await settle();
  const before = mutating ? await fingerprint() : '';
  const res = await send(opts);
  if (res.statusCode >= 400) {
    stats.refused++;
    const after = mutating ? await fingerprint() : '';
    if (after !== before) {
      const changed = after
        .split(';')
        .filter((x) => !before.split(';').includes(x))
        .map((x) => x.split(':')[0]);
      stats.changedByRefusal.push(`${label}: ${opts.method} ${opts.url.slice(0, 120)} → ${res.statusCode} changed ${changed.join(', ')}`);
    }
  }
  return res;
}

const fill = (url: string, values: Record<string, string>) => url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? randomUUID());
const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';
/** Routes that end the caller's own session or account: run with forged credentials only. */
const selfDestructive = (r: Route) => (r.method === 'DELETE' && paramsOf(r.url).length === 0) || r.url.endsWith('/leave');

function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>, boundary = `b${randomBytes(6).toString('hex')}`) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(typeof p.value === 'string' ? Buffer.from(p.value) : p.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sets `path` (dotted, numeric segments for arrays) in a fresh copy of `base` to `value`. */
function setPath(base: unknown, dotted: string, value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Record<string, unknown>;
  const keys = dotted.split('.');
  let node: Record<string, unknown> = root;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) node[k] = value;
    else {
      if (typeof node[k] !== 'object' || node[k] === null) node[k] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
      node = node[k] as Record<string, unknown>;
    }
  });
  return root;
}

/** The body fields a route reports when it is sent an empty object (twice, to reach one level of nesting). */
async function discoverFields(route: Route): Promise<string[]> {
  const url = fill(route.url, ids);
  const found = new Set<string>();
  let body: unknown = {};
  for (let round = 0; round < 3; round++) {
    const res = await send({ method: route.method as InjectOptions['method'], url, headers: owner, payload: body as object });
    const fields = res.statusCode === 400 ? (res.json() as { error?: { fields?: Record<string, string> } }).error?.fields : undefined;
    if (!fields) break;
    const next = Object.keys(fields).filter((f) => !found.has(f) && f !== 'body');
    if (next.length === 0) break;
    for (const f of next) {
      found.add(f);
      body = setPath(body, f, {});
    }
  }
  return [...found];
}

beforeAll(async () => {
  // Sign-in from other systems configured, so its route is fuzzed past the "not configured" answer.
  t = await createTestApp({ RETENTION_MINUTES: '60', INTEGRATION_KEY: randomBytes(32).toString('hex') });
  dir = mkdtempSync(path.join(tmpdir(), 'cn-fuzz-'));
  routes = t.app.auditLog.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');

  const [org] = await t.ctx.db.insert(organizations).values({ name: 'Fuzz Clinic' }).returning();
  const a = await createUser(t, { organizationId: org!.id, organizationRole: 'admin' });
  const b = await createUser(t);
  owner = bearer(await login(t, a.email, a.password));
  attacker = bearer(await login(t, b.email, b.password));
  const call = async (method: InjectOptions['method'], url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: owner, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`set-up ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  ids.organizationId = org!.id;
  ids.userId = a.id;
  ids.id = (await call('POST', '/v1/consultation_sessions', { consultation_type_id: 'general_consultation' })).consultation_session.id;
  const audio = multipartAudio(0, makeWebm(dir, 'fuzz', 1));
  ids.audioId = (
    await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${ids.id}/audios`, headers: { ...owner, ...audio.headers }, payload: audio.payload })
  ).json().audio.id;
  await t.ctx.transcriptionQueue.drain();
  await call('PUT', `/v1/consultation_sessions/${ids.id}/finish`);
  ids.doc = 'main';
  ids.docId = 'referral_letter';
  ids.typeId = 'general_consultation';
  ids.token = randomBytes(32).toString('hex');
  ids.spaceId = (await call('POST', '/v1/research_spaces', { research_space: { name: 'Fuzz space' } })).research_space.id;
  ids.trialId = (await call('POST', `/v1/research_spaces/${ids.spaceId}/trials`, { trial: { name: 'DIA-3', description: '' } })).trial.id;
  ids.criterionId = (
    await call('POST', `/v1/research_spaces/${ids.spaceId}/trials/${ids.trialId}/criteria`, {
      criterion: { definition: 'Age between 18 and 75 years', type: 'critical_inclusion' },
    })
  ).criterion.id;
  const pdf = multipart([
    { name: 'reference', value: 'P-001' },
    { name: 'files', value: textRecordPdf(['Age 54. Type 2 diabetes.']), filename: 'record.pdf', type: 'application/pdf' },
  ]);
  const patient = await t.app.inject({
    method: 'POST',
    url: `/v1/research_spaces/${ids.spaceId}/patients`,
    headers: { ...owner, 'content-type': pdf.contentType },
    payload: pdf.payload,
  });
  if (patient.statusCode !== 201) throw new Error(`set-up patient: ${patient.statusCode} ${patient.body}`);
  ids.patientId = patient.json().patient.id;
  ids.fileId = patient.json().patient.files[0].id;
  const request = await call('POST', '/v1/custom_document_requests', { custom_document_request: { title: 'Discharge letter' } });
  ids.customId = request.custom_document_request.id;
  const inputs = (await call('GET', '/v1/processor_inputs')).processor_inputs;
  ids.inputId = inputs[0].id;
  ids.templateId = (await call('POST', `/v1/processor_inputs/${ids.inputId}/templates`, { template: { name: 'Mine', template: 'Hello' } })).template.id;
  const invited = await call('POST', `/v1/organizations/${ids.organizationId}/invitations`, { emails: ['colleague@fuzz.test'], role: 'member' });
  ids.invitationId = (invited.invitations ?? (await call('GET', `/v1/organizations/${ids.organizationId}/invitations`)).invitations)[0].id;
  // Background work started above (reading the record, writing the notes) must be over, or its writes would
  // look like changes made by refused requests.
  await settle();
}, 120_000);

afterAll(async () => {
  console.log(
    `fuzz: ${stats.requests} requests over ${routes.length} routes, ${stats.serverErrors.length} answered 5xx, ` +
      `${stats.refused} refused, ${stats.changedByRefusal.length} refused requests changed data`,
  );
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The owner's real value for a parameter, by the route it appears in (`:id` means different things). */
function valuesFor(route: Route): Record<string, string> {
  const v = { ...ids };
  if (route.url.startsWith('/v1/custom_document_requests')) v.id = ids.customId!;
  else if (route.url.startsWith('/v1/processor_inputs')) v.id = ids.inputId!;
  else if (route.url.startsWith('/v1/consultation_types')) v.id = 'general_consultation';
  else if (route.url.startsWith('/v1/selectable_documents')) v.id = 'clinical_summary';
  else if (route.url.startsWith('/template/')) v.id = randomUUID();
  return v;
}

describe('every registered route under attack', () => {
  it('finds the routes from the app itself', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.some((r) => r.url === '/v1/consultation_sessions/:id/audios' && r.method === 'POST')).toBe(true);
  });

  it('path parameters that are not what they should be', async () => {
    for (const route of routes.filter((r) => !selfDestructive(r))) {
      const values = valuesFor(route);
      for (const name of paramsOf(route.url)) {
        for (const bad of PARAM_ATTACKS) {
          await attack(
            {
              method: route.method as InjectOptions['method'],
              url: fill(route.url, { ...values, [name]: bad }),
              headers: owner,
              ...(hasBody(route.method) ? { payload: {} } : {}),
            },
            `param ${name}`,
          );
        }
      }
    }
    expect(stats.serverErrors).toEqual([]);
    expect(stats.changedByRefusal).toEqual([]);
  }, 600_000);

  it('no token, a forged token, and another user’s token on the owner’s records', async () => {
    const forged = {
      authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"sub":"${ids.userId}"}`).toString('base64url')}.`,
    };
    for (const route of routes) {
      const url = fill(route.url, valuesFor(route));
      const payload = hasBody(route.method) ? { payload: {} } : {};
      for (const headers of [{}, forged, { authorization: 'Bearer garbage' }])
        await attack({ method: route.method as InjectOptions['method'], url, headers, ...payload }, 'credentials');
      if (!selfDestructive(route)) {
        const res = await attack({ method: route.method as InjectOptions['method'], url, headers: attacker, ...payload }, 'other user');
        // Someone else's consultation, space, request, template or organization is never reachable.
        const owned =
          ['id', 'spaceId', 'organizationId', 'templateId', 'audioId'].some((p) => route.url.includes(`:${p}`)) &&
          !/consultation_types|processor_inputs\/:id\/templates$|selectable_documents/.test(route.url);
        // A record system's launch address is public by design (opened with no session, it names the organization
        // whose record system may launch): anyone gets the same redirect, to the record system or the failure page.
        const publicAddress = route.url === '/template/:id/reports' || route.url === '/launch/:organizationId';
        if (owned && !publicAddress) expect(res.statusCode, `${route.method} ${route.url}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(stats.serverErrors).toEqual([]);
    expect(stats.changedByRefusal).toEqual([]);
  }, 600_000);

  it('bodies that are not JSON objects, too big, too deep, or of another type', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const bodies: Array<{ contentType: string; payload: string | Buffer; label: string }> = [
      { contentType: 'application/json', payload: '{', label: 'broken JSON' },
      { contentType: 'application/json', payload: '', label: 'empty' },
      { contentType: 'application/json', payload: 'null', label: 'null' },
      { contentType: 'application/json', payload: '[]', label: 'array' },
      { contentType: 'application/json', payload: '"text"', label: 'string' },
      { contentType: 'application/json', payload: '1e309', label: 'huge number' },
      { contentType: 'application/json', payload: '{"__proto__":{"admin":true,"organizationRole":"admin"}}', label: '__proto__' },
      { contentType: 'application/json', payload: '{"constructor":{"prototype":{"admin":true}}}', label: 'constructor' },
      { contentType: 'application/json', payload: deep, label: 'deep' },
      { contentType: 'application/json', payload: JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }), label: 'oversize' },
      { contentType: 'application/json', payload: '{"a":"\\u0000"}', label: 'NUL' },
      { contentType: 'text/plain', payload: 'hello', label: 'text/plain' },
      { contentType: 'application/xml', payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', label: 'xml' },
      { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&__proto__[b]=2', label: 'form' },
      { contentType: 'multipart/form-data', payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', label: 'multipart without boundary' },
      {
        contentType: 'multipart/form-data; boundary=x',
        payload:
          '--x\r\nContent-Disposition: form-data; name="order"\r\n\r\n1\r\n--x\r\nContent-Disposition: form-data; name="audio_file"; filename="a.webm"\r\n\r\nab',
        label: 'truncated multipart',
      },
      { contentType: 'multipart/form-data; boundary=x', payload: Buffer.from([0, 1, 2, 255, 254, 13, 10, 45, 45, 120]), label: 'garbage multipart' },
    ];
    for (const route of routes.filter((r) => hasBody(r.method) && !selfDestructive(r))) {
      const url = fill(route.url, valuesFor(route));
      for (const b of bodies)
        await attack(
          { method: route.method as InjectOptions['method'], url, headers: { ...owner, 'content-type': b.contentType }, payload: b.payload },
          b.label,
        );
    }
    expect(stats.serverErrors).toEqual([]);
    expect(stats.changedByRefusal).toEqual([]);
    // The prototype of every object is untouched by the attempts above.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  }, 600_000);

  it('each field a route reports, given values of the wrong kind', async () => {
    const wrong: unknown[] = [
      '\u0000',
      'a\u0000b',
      'x'.repeat(200_000),
      1e308,
      -1,
      2 ** 31,
      true,
      [],
      {},
      null,
      ['\u0000'],
      { __proto__: { admin: true } },
      '../../etc/passwd',
      '<script>alert(1)</script>',
    ];
    let fieldsSeen = 0;
    for (const route of routes.filter((r) => hasBody(r.method) && !selfDestructive(r))) {
      const fields = await discoverFields(route);
      fieldsSeen += fields.length;
      const url = fill(route.url, valuesFor(route));
      for (const f of fields) {
        for (const value of wrong) {
          await attack({ method: route.method as InjectOptions['method'], url, headers: owner, payload: setPath({}, f, value) as object }, `field ${f}`);
        }
      }
    }
    expect(fieldsSeen).toBeGreaterThan(20);
    expect(stats.serverErrors).toEqual([]);
    expect(stats.changedByRefusal).toEqual([]);
  }, 600_000);

  it('query strings out of range, repeated, or carrying NUL and prototype keys', async () => {
    const queries = [
      'version=99999999999',
      'version=-1',
      'version=abc',
      'version=1e3',
      'x=%00',
      '__proto__[admin]=1',
      'a=1&a=2&a=3',
      `q=${'z'.repeat(10_000)}`,
      'audios_ids=not-a-uuid,%00',
      'expires=9e99&signature=%00',
    ];
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const url = fill(route.url, valuesFor(route));
      for (const q of queries) await attack({ method: 'GET', url: `${url}?${q}`, headers: owner }, 'query');
    }
    expect(stats.serverErrors).toEqual([]);
  }, 600_000);

  it('uploads: wrong files, hostile names, too many and too large', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(2000)]);
    const uploads = routes.filter((r) => /audios$|patients$|examples$|regenerate$|audio-to-text/.test(r.url) && r.method === 'POST');
    expect(uploads.length).toBeGreaterThanOrEqual(5);
    for (const route of uploads) {
      const url = fill(route.url, valuesFor(route));
      const field = /patients$/.test(route.url) ? 'files' : /examples$/.test(route.url) ? 'file' : /audios$/.test(route.url) ? 'audio_file' : 'audio';
      const cases = [
        multipart([
          { name: 'order', value: '1' },
          { name: field, value: exe, filename: 'record.pdf', type: 'application/pdf' },
        ]),
        multipart([
          { name: 'order', value: '2' },
          { name: field, value: exe, filename: '../../../etc/passwd', type: 'audio/webm' },
        ]),
        multipart([
          { name: 'order', value: '3' },
          { name: field, value: Buffer.from('%PDF-1.7\n%garbage'), filename: 'a\u0000.pdf', type: 'application/pdf' },
        ]),
        multipart([{ name: 'order\u0000', value: '4' }]),
        multipart([
          { name: 'reference', value: 'r'.repeat(100_000) },
          { name: field, value: Buffer.alloc(10), filename: 'x' },
        ]),
        multipart(Array.from({ length: 30 }, (_, i) => ({ name: field, value: Buffer.from(`%PDF-1.4 ${i}`), filename: `${i}.pdf`, type: 'application/pdf' }))),
        multipart(Array.from({ length: 200 }, (_, i) => ({ name: `f${i}`, value: 'v' }))),
        multipart([{ name: field, value: Buffer.alloc(0), filename: 'empty.webm', type: 'audio/webm' }]),
      ];
      for (const c of cases)
        await attack({ method: 'POST', url, headers: { ...owner, 'content-type': c.contentType }, payload: c.payload }, `upload ${route.url}`);
    }
    expect(stats.serverErrors).toEqual([]);
    expect(stats.changedByRefusal).toEqual([]);
  }, 600_000);

  it('left no token, password or patient text in the log', () => {
    const log = t.logs.join('');
    expect(log.length).toBeGreaterThan(10_000);
    const secrets = [
      owner.authorization!.slice(7),
      attacker.authorization!.slice(7),
      'secret-pass',
      ids.token!,
      'Type 2 diabetes',
      'P-001',
      'record.pdf',
      '<script>alert(1)</script>',
      '\\u0000',
    ];
    for (const s of secrets) expect(log, s.slice(0, 20)).not.toContain(s);
  });

  it('made at least 1,500 hostile requests, and left the owner and the attacker as they were', async () => {
    expect(stats.requests).toBeGreaterThanOrEqual(1500);
    const [a] = await t.ctx.db.select().from(users).where(eq(users.id, ids.userId!));
    expect(a).toMatchObject({ organizationId: ids.organizationId, organizationRole: 'admin' });
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: attacker })).json().d_user.organization).toBeFalsy();
  });
});
