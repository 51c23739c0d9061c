import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { consultationsApi } from './consultations';
import { installApi } from './instance';

describe("the server's settings", () => {
  it('are asked once for the screens that want them together, and again after a failure', async () => {
    let answers = 0;
    let failNext = true;
    const fetch = vi.fn(async () => {
      answers++;
      if (failNext) {
        failNext = false;
        return new Response('{}', { status: 503, headers: { 'content-type': 'application/json' } });
      }
      return new Response(JSON.stringify({ transcription: { engine: 'local' } }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    installApi(
      createApiClient({
        getToken: () => 't',
        getLocale: () => 'en',
        onUnauthorized: vi.fn(),
        onDeprecated: vi.fn(),
        prefixUrl: 'http://api.test/',
        fetch: fetch as unknown as typeof globalThis.fetch,
      }),
    );
    await expect(consultationsApi.capabilities()).rejects.toBeDefined();
    // Not kept: the frame and the consultation screen, asking together now, share one new request.
    const [a, b] = await Promise.all([consultationsApi.capabilities(), consultationsApi.capabilities()]);
    expect(a).toEqual(b);
    expect(a.transcription.engine).toBe('local');
    expect(answers).toBe(2);
    await consultationsApi.capabilities();
    expect(answers).toBe(2);
  });
});
