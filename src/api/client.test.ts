import { describe, expect, it, vi } from 'vitest';
import { CLIENT_VERSION, REQUEST_TIMEOUT_MS, call, createApiClient, type ApiClientHost } from './client';

function setup(respond: (req: Request) => Response | Promise<Response>, signedIn = true) {
  const token = signedIn ? 'tok-123' : undefined;
  const seen: Request[] = [];
  const host: ApiClientHost = {
    getToken: () => token,
    getLocale: () => 'de',
    onUnauthorized: vi.fn(),
    onDeprecated: vi.fn(),
    prefixUrl: 'http://api.test/',
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      seen.push(req);
      return respond(req);
    }) as typeof fetch,
  };
  return { client: createApiClient(host), host, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('API client', () => {
  it('sends the bearer token, the active locale and the client version', async () => {
    const { client, seen } = setup(() => json(200, { ok: true }));
    await client.get('v1/account').json();
    const req = seen[0]!;
    expect(req.headers.get('authorization')).toBe('Bearer tok-123');
    expect(req.headers.get('accept-language')).toBe('de');
    expect(req.headers.get('client-version')).toBe('0.0.20');
    expect(CLIENT_VERSION).toBe('0.0.20');
    expect(REQUEST_TIMEOUT_MS).toBe(120000);
  });

  it('sends no Authorization header when signed out', async () => {
    const { client, seen } = setup(() => json(200, {}), false);
    await client.get('v1/x');
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('signs out on 401 and rejects with the body', async () => {
    const { client, host } = setup(() => json(401, { error: { code: 'unauthorized', message: 'Authentication required' } }));
    const err = await call(() => client.get('v1/account')).catch((e: unknown) => e);
    expect(host.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(err).toMatchObject({ failure: { kind: 'http', status: 401, code: 'unauthorized' } });
  });

  it('does not sign out on a 401 of a signed-out call (wrong password)', async () => {
    const { client, host } = setup(() => json(401, { error: { code: 'invalid_credentials', message: '' } }), false);
    await call(() => client.post('v1/login')).catch(() => undefined);
    expect(host.onUnauthorized).not.toHaveBeenCalled();
  });

  it('tells the host when the server says the client is deprecated', async () => {
    const { client, host } = setup(() => json(200, {}, { 'x-client-deprecated': 'true' }));
    await client.get('v1/account');
    expect(host.onDeprecated).toHaveBeenCalledTimes(1);
  });

  it('turns network errors into a generic connection failure', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    const err = await call(() => client.get('v1/account')).catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: { kind: 'network' } });
  });

  it('keeps field errors of a 400', async () => {
    const { client } = setup(() => json(400, { error: { code: 'invalid_request', message: 'Invalid', fields: { 'user.email': 'invalid_email' } } }));
    const err = await call(() => client.post('v1/signup')).catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: { kind: 'http', status: 400, fields: { 'user.email': 'invalid_email' } } });
  });
});
