import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint, openPrivateKey, openToken, saveEndpoint } from '../organizations/fhir_endpoint/service.js';
import { runCommand } from '../../admin/commands.js';
import { openApiKey } from '../../ai/engine-settings.js';
import { openKeyRing } from '../../storage/master-keys.js';
import { aiEngineSettings, auditEvents, organizations, users } from '../../db/schema.js';
import { startFakeOpenAi } from '../../test-support/fake-openai.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, usingPostgres, type TestApp } from '../../test-support/test-app.js';

const KEY = 'sk-test-7f3a9c2e41b8d6f0a5e2';

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
let admin: Awaited<ReturnType<typeof createUser>>;
let adminToken: string;

beforeAll(async () => {
  fake = await startFakeOpenAi([]);
  t = await createTestApp({ AI_DISCOVERY_URLS: fake.baseUrl.replace(/\/v1$/, '') + ',http://127.0.0.1:9' });
  admin = await createUser(t, { password: 'admin-pass-123', emailConfirmedAt: new Date() });
  expect(await runCommand(t.ctx.db, t.ctx.config, 'grant-server-admin', { email: admin.email })).toEqual([expect.stringContaining('can now set')]);
  adminToken = await login(t, admin.email, 'admin-pass-123');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token = adminToken, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('who may reach the AI engine settings', () => {
  it('asks for a session, and refuses clinicians and organisation administrators', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/ai_engines' })).statusCode).toBe(401);
    const clinician = await createUser(t);
    const orgAdmin = await createUser(t, { organizationRole: 'admin' });
    for (const u of [clinician, orgAdmin]) {
      const token = await login(t, u.email, u.password);
      for (const [method, url, payload] of [
        ['GET', '/v1/ai_engines'],
        ['GET', '/v1/ai_engines/discover'],
        ['PUT', '/v1/ai_engines/text', { base_url: fake.baseUrl, model: 'm', password: u.password }],
        ['POST', '/v1/ai_engines/text/reset', { password: u.password }],
        ['POST', '/v1/ai_engines/text/test', { base_url: fake.baseUrl, model: 'm' }],
      ] as const) {
        const res = await call(method, url, token, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error.code).toBe('server_admin_only');
      }
    }
    expect(await t.ctx.db.select().from(aiEngineSettings)).toEqual([]);
  });

  it('cannot be granted through the account settings', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    await call('PUT', '/v1/account', token, { user: { server_admin: true } });
    const me = await call('GET', '/v1/account', token);
    expect(me.json().d_user.server_admin).toBe(false);
    expect((await call('GET', '/v1/ai_engines', token)).statusCode).toBe(403);
  });

  it('is granted and revoked by the admin command only, to a confirmed address, and the web app knows it', async () => {
    const u = await createUser(t, { emailConfirmedAt: null });
    // Anyone may sign up with the operator's address before the operator does: unconfirmed, it gets nothing.
    await expect(runCommand(t.ctx.db, t.ctx.config, 'grant-server-admin', { email: u.email })).rejects.toThrow(/not confirmed/);
    await t.ctx.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, u.id));
    const token = await login(t, u.email, u.password);
    await runCommand(t.ctx.db, t.ctx.config, 'grant-server-admin', { email: u.email.toUpperCase() });
    expect((await call('GET', '/v1/account', token)).json().d_user.server_admin).toBe(true);
    expect((await call('GET', '/v1/ai_engines', token)).statusCode).toBe(200);
    await runCommand(t.ctx.db, t.ctx.config, 'revoke-server-admin', { email: u.email });
    expect((await call('GET', '/v1/ai_engines', token)).statusCode).toBe(403);
    await expect(runCommand(t.ctx.db, t.ctx.config, 'grant-server-admin', { email: 'nobody@clinic.test' })).rejects.toThrow(/No account/);
  });
});

describe('settings › AI engines', () => {
  it('shows the embedded defaults before anything is saved', async () => {
    const res = await call('GET', '/v1/ai_engines');
    expect(res.statusCode).toBe(200);
    expect(res.json().text).toEqual({
      active: { engine: 'composer', model: null, base_url: null, source: 'default' },
      problem: null,
      locked_by_environment: false,
      saved: null,
    });
    expect(res.json().speech.active.source).toBe('default');
  });

  it('finds an OpenAI-compatible server on this machine and lists its models by kind', async () => {
    const res = await call('GET', '/v1/ai_engines/discover');
    expect(res.statusCode).toBe(200);
    expect(res.json().found).toEqual([
      { base_url: fake.baseUrl, name: 'OpenAI-compatible server', speech_models: ['whisper-large-v3'], text_models: ['llama3.2:3b'] },
    ]);
  });

  it('tests an endpoint before it is saved: latency and answer, with the key sent only to it', async () => {
    fake.received.length = 0;
    const text = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: fake.baseUrl, model: 'llama3.2:3b', api_key: KEY });
    expect(text.statusCode).toBe(200);
    expect(text.json()).toMatchObject({ ok: true, answer: 'ok' });
    expect(text.json().latency_ms).toBeGreaterThanOrEqual(0);
    expect(fake.received.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(fake.received.at(-1)!.body).model).toBe('llama3.2:3b');

    const speech = await call('POST', '/v1/ai_engines/speech/test', adminToken, { base_url: fake.baseUrl, model: 'whisper-large-v3' });
    expect(speech.json()).toMatchObject({ ok: true, answer: 'ok', expected: expect.stringContaining('Blood pressure') });
    expect(fake.received.at(-1)!.path).toMatch(/\/audio\/transcriptions$/);
  });

  it('tells apart what went wrong', async () => {
    const port = await closedPort();
    const unreachable = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: `http://127.0.0.1:${port}/v1`, model: 'm' });
    expect(unreachable.json()).toMatchObject({ ok: false, error: 'unreachable' });
    fake.received.length = 0;
    const script = [{ status: 401 }, { status: 404 }];
    const scripted = await startFakeOpenAi(script);
    try {
      const refused = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: scripted.baseUrl, model: 'm', api_key: KEY });
      expect(refused.json()).toMatchObject({ ok: false, error: 'unauthorized', status: 401 });
      expect(refused.body).not.toContain(KEY);
      const missing = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: scripted.baseUrl, model: 'm' });
      expect(missing.json()).toMatchObject({ ok: false, error: 'not_found', status: 404 });
    } finally {
      await scripted.close();
    }
  });

  it('refuses addresses that are not http(s), carry a user and password or a query, or are link-local', async () => {
    for (const [base_url, code] of [
      ['file:///etc/passwd', 'invalid_url'],
      ['gopher://127.0.0.1:70/', 'invalid_url'],
      ['http://user:pass@127.0.0.1/v1', 'invalid_url'],
      ['not a url', 'invalid_url'],
      // A query would swallow the path the client appends: any address and path could be posted to.
      [`${fake.baseUrl}/anything?`, 'invalid_url'],
      [`${fake.baseUrl}#x`, 'invalid_url'],
      ['http://169.254.169.254/latest', 'link_local_address'],
      ['http://[fe80::1]/v1', 'link_local_address'],
    ]) {
      const res = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url, model: 'm' });
      expect(res.statusCode, base_url).toBe(400);
      expect(res.json().error.fields, base_url).toEqual({ base_url: code });
    }
    expect((await call('POST', '/v1/ai_engines/other/test', adminToken, {})).statusCode).toBe(400);
  });

  it('saves an engine only with the password, seals the key, and runs it at once', async () => {
    const wrong = await call('PUT', '/v1/ai_engines/text', adminToken, {
      base_url: fake.baseUrl,
      model: 'llama3.2:3b',
      api_key: KEY,
      password: 'not-my-password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('invalid_current_password');
    expect(await t.ctx.db.select().from(aiEngineSettings)).toEqual([]);

    const saved = await call('PUT', '/v1/ai_engines/text', adminToken, {
      base_url: `${fake.baseUrl}/`,
      model: 'llama3.2:3b',
      api_key: KEY,
      password: 'admin-pass-123',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().text).toMatchObject({
      active: { engine: 'openai', model: 'llama3.2:3b', base_url: fake.baseUrl, source: 'app' },
      saved: { base_url: fake.baseUrl, model: 'llama3.2:3b', has_key: true },
    });
    expect(saved.body).not.toContain(KEY);
    const [row] = await t.ctx.db.select().from(aiEngineSettings);
    expect(row!.apiKeySealed).toBeTruthy();
    expect(row!.apiKeySealed).not.toContain(KEY);
    expect(Buffer.from(row!.apiKeySealed!, 'base64').toString('latin1')).not.toContain(KEY);

    // The documents, the assistant and the screener now write with it.
    expect(t.ctx.textGenerator.info).toMatchObject({ engine: 'openai', usesAi: true });
    expect(t.ctx.textGenerator.converse).toBeTypeOf('function');
    fake.received.length = 0;
    const active = await call('POST', '/v1/ai_engines/text/test', adminToken, {});
    expect(active.json()).toMatchObject({ ok: true, answer: 'ok' });
    expect(fake.received.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    // Saving again without a key keeps it; the key never reaches the log.
    await call('PUT', '/v1/ai_engines/text', adminToken, { base_url: fake.baseUrl, model: 'llama3.2:1b', password: 'admin-pass-123' });
    expect((await call('GET', '/v1/ai_engines')).json().text.saved).toMatchObject({ model: 'llama3.2:1b', has_key: true });
    expect(t.logs.join('\n')).not.toContain(KEY);
    expect(t.logs.join('\n')).not.toContain('admin-pass-123');
  });

  it('never sends the saved key to another address', async () => {
    const other = await startFakeOpenAi([]);
    try {
      const res = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: other.baseUrl, model: 'm' });
      expect(res.json().ok).toBe(true);
      expect(other.received.at(-1)!.headers.authorization).not.toContain(KEY);
      // Nor does saving another address without a key carry the old key over.
      await call('PUT', '/v1/ai_engines/text', adminToken, { base_url: other.baseUrl, model: 'm', password: 'admin-pass-123' });
      expect((await call('GET', '/v1/ai_engines')).json().text.saved.has_key).toBe(false);
      await call('PUT', '/v1/ai_engines/text', adminToken, { base_url: fake.baseUrl, model: 'llama3.2:3b', api_key: KEY, password: 'admin-pass-123' });
    } finally {
      await other.close();
    }
  });

  it('swaps the speech engine used by the transcription of consultations', async () => {
    const res = await call('PUT', '/v1/ai_engines/speech', adminToken, { base_url: fake.baseUrl, model: 'whisper-large-v3', password: 'admin-pass-123' });
    expect(res.json().speech.active).toMatchObject({ engine: 'openai', model: 'whisper-large-v3', source: 'app' });
    expect(t.ctx.transcriber.info.engine).toBe('openai');
    fake.received.length = 0;
    const test = await call('POST', '/v1/ai_engines/speech/test', adminToken, {});
    expect(test.json()).toMatchObject({ ok: true, answer: 'ok' });
    expect(fake.received.at(-1)!.path).toMatch(/\/audio\/transcriptions$/);
  });

  it('records every change and test in the audit log, without the key', async () => {
    const rows = await t.ctx.db.select().from(auditEvents).where(eq(auditEvents.resourceType, 'ai_engine'));
    expect(rows.filter((r) => r.action === 'update' && r.outcome === 'success').map((r) => r.resourceId)).toEqual(expect.arrayContaining(['text', 'speech']));
    expect(rows.some((r) => r.action === 'update' && r.outcome === 'failure')).toBe(true);
    expect(rows.every((r) => r.actorUserId === admin.id || r.outcome === 'failure')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(KEY);
  });

  it('keeps the sealed key readable across a master key rotation (and the record systems’ token and signing key)', async () => {
    const before = (await t.ctx.db.select().from(aiEngineSettings).where(eq(aiEngineSettings.kind, 'text')))[0]!.apiKeySealed;
    const [withToken, withKey] = await t.ctx.db
      .insert(organizations)
      .values([{ name: 'Token clinic' }, { name: 'Key clinic' }])
      .returning();
    await saveEndpoint(t.ctx, withToken!.id, admin.id, { base_url: 'https://records.example.org/fhir', auth: 'bearer', token: 'record-system-token' });
    await saveEndpoint(t.ctx, withKey!.id, admin.id, { base_url: 'https://records.example.org/fhir', auth: 'backend_services', client_id: 'notes' });
    const signingKey = openPrivateKey(t.ctx.engines.keys, (await findEndpoint(t.ctx.db, withKey!.id))!);
    const lines = await runCommand(t.ctx.db, t.ctx.config, 'rotate-key', {});
    expect(lines.join('\n')).toContain('3 AI engine key(s) and record system secret(s) resealed');
    const after = (await t.ctx.db.select().from(aiEngineSettings).where(eq(aiEngineSettings.kind, 'text')))[0]!.apiKeySealed;
    expect(after).not.toBe(before);
    // A process started now reads the key ring file, which holds only the new key.
    const ring = openKeyRing({ dataDir: t.ctx.config.dataDir });
    expect(ring.ids()).toHaveLength(1);
    expect(openApiKey(ring, 'text', after!)).toBe(KEY);
    expect(openToken(ring, (await findEndpoint(t.ctx.db, withToken!.id))!)).toBe('record-system-token');
    expect(openPrivateKey(ring, (await findEndpoint(t.ctx.db, withKey!.id))!)).toEqual(signingKey);
  });

  it('runs the default when a saved key no longer opens, and says so', async () => {
    await call('PUT', '/v1/ai_engines/text', adminToken, { base_url: fake.baseUrl, model: 'llama3.2:3b', api_key: KEY, password: 'admin-pass-123' });
    // As if sealed under a master key this server does not have (moved without ENCRYPTION_KEY, or damaged).
    const [row] = await t.ctx.db.select().from(aiEngineSettings).where(eq(aiEngineSettings.kind, 'text'));
    const damaged = Buffer.from(row!.apiKeySealed!, 'base64');
    damaged[damaged.length - 1]! ^= 0xff;
    await t.ctx.db
      .update(aiEngineSettings)
      .set({ apiKeySealed: damaged.toString('base64'), updatedAt: new Date(Date.now() + 1000) })
      .where(eq(aiEngineSettings.kind, 'text'));
    await t.ctx.engines.reload();
    const view = (await call('GET', '/v1/ai_engines')).json();
    expect(view.text.active.source).toBe('default');
    expect(view.text.problem).toBeTruthy();
    expect(view.speech.problem).toBeNull();
    expect(t.ctx.textGenerator.info.engine).toBe('composer');
    const test = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: fake.baseUrl, model: 'm' });
    expect(test.statusCode).toBe(409);
    expect(test.json().error.code).toBe('saved_key_unusable');
    // Entering the key again mends it.
    await call('PUT', '/v1/ai_engines/text', adminToken, { base_url: fake.baseUrl, model: 'llama3.2:3b', api_key: KEY, password: 'admin-pass-123' });
    expect((await call('GET', '/v1/ai_engines')).json().text).toMatchObject({ active: { source: 'app' }, problem: null });
  });

  it('goes back to the default with the password', async () => {
    expect((await call('POST', '/v1/ai_engines/speech/reset', adminToken, { password: 'wrong-password' })).statusCode).toBe(400);
    const res = await call('POST', '/v1/ai_engines/speech/reset', adminToken, { password: 'admin-pass-123' });
    expect(res.statusCode).toBe(200);
    expect(res.json().speech).toMatchObject({ active: { source: 'default' }, saved: null });
    expect(t.ctx.transcriber.info.engine).not.toBe('openai');
  });
});

describe('what comes back from an engine', () => {
  /** An engine that echoes what it was sent: the key in a refusal, the Authorization header in an answer. */
  async function echoingEngine(handler: (req: IncomingMessage, res: ServerResponse, auth: string) => void) {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => handler(req, res, String(req.headers.authorization ?? '')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, close: () => new Promise<void>((r) => server.close(() => r())) };
  }
  const GROQ_LIKE = 'gsk_Q7m2LxP9vR4tZ8wK3nB6yH1c';

  it('never gives back the key, whole or in part, in an error or an answer', async () => {
    const refusing = await echoingEngine((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${GROQ_LIKE.slice(0, 10)}***. Yours was ${GROQ_LIKE}.` } }));
    });
    const echoing = await echoingEngine((_req, res, auth) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: `you sent ${auth}` }, finish_reason: 'stop' }],
        }),
      );
    });
    try {
      const refused = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: refusing.baseUrl, model: 'm', api_key: GROQ_LIKE });
      expect(refused.json()).toMatchObject({ ok: false, error: 'unauthorized' });
      expect(refused.body).not.toContain(GROQ_LIKE.slice(0, 10));
      expect(refused.body).not.toContain(GROQ_LIKE.slice(-8));
      const echoed = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: echoing.baseUrl, model: 'm', api_key: GROQ_LIKE });
      expect(echoed.json().ok).toBe(true);
      expect(echoed.body).not.toContain(GROQ_LIKE.slice(4, 12));
      expect(echoed.json().answer).toContain('[key]');
    } finally {
      await refusing.close();
      await echoing.close();
    }
  });

  it('follows no redirect, and stops reading an answer that never ends', async () => {
    fake.received.length = 0;
    const redirecting = await echoingEngine((_req, res) => {
      res.writeHead(307, { location: `${fake.baseUrl}/chat/completions` });
      res.end();
    });
    const endless = await echoingEngine((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 32);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    try {
      const redirected = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: redirecting.baseUrl, model: 'm' });
      expect(redirected.json().ok).toBe(false);
      expect(fake.received).toEqual([]);
      const huge = await call('POST', '/v1/ai_engines/text/test', adminToken, { base_url: endless.baseUrl, model: 'm' });
      expect(huge.json()).toMatchObject({ ok: false });
    } finally {
      await redirecting.close();
      await endless.close();
    }
  });
});

describe('the environment wins', () => {
  it('shows the engine it names and refuses to change it in the app', async () => {
    const env = await createTestApp({ GENERATION_ENGINE: 'composer' });
    try {
      const u = await createUser(env, { serverAdmin: true });
      const token = await login(env, u.email, u.password);
      const view = await env.app.inject({ method: 'GET', url: '/v1/ai_engines', headers: bearer(token) });
      expect(view.json().text).toMatchObject({ active: { engine: 'composer', source: 'environment' }, locked_by_environment: true });
      expect(view.json().speech.locked_by_environment).toBe(false);
      const put = await env.app.inject({
        method: 'PUT',
        url: '/v1/ai_engines/text',
        headers: bearer(token),
        payload: { base_url: fake.baseUrl, model: 'm', password: u.password },
      });
      expect(put.statusCode).toBe(409);
      expect(put.json().error.code).toBe('locked_by_environment');
      expect(env.ctx.textGenerator.info.engine).toBe('composer');
    } finally {
      await env.close();
    }
  });
});

describe.runIf(usingPostgres())('several processes on one database', () => {
  it('a change saved through one process reaches another', async () => {
    // Processes sharing a database share the master key too (ENCRYPTION_KEY, or here the same key ring file).
    const second = await createTestApp({ DATA_DIR: t.ctx.config.dataDir }, { sharingDatabaseOf: t });
    try {
      // Saved through the second process (its own limit on password checks), read by the first.
      const saved = await second.app.inject({
        method: 'PUT',
        url: '/v1/ai_engines/text',
        headers: bearer(adminToken),
        payload: { base_url: fake.baseUrl, model: 'other-model', password: 'admin-pass-123' },
      });
      expect(saved.statusCode).toBe(200);
      expect(second.ctx.engines.active('text')).toMatchObject({ source: 'app', model: 'other-model' });
      await t.ctx.engines.reload();
      expect(t.ctx.engines.active('text')).toMatchObject({ source: 'app', model: 'other-model' });
      expect(t.ctx.textGenerator.info.engine).toBe('openai');
    } finally {
      await second.close();
    }
  });
});
