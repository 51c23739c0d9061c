import { describe, expect, it } from 'vitest';
import { answeredByServer } from './server-navigations';

describe('navigations the service worker leaves to the server', () => {
  it('leaves the record system launch and its return to the server', () => {
    expect(answeredByServer('/launch/8f0c1c9e-3f4a-4b8e-9a55-0e1b2c3d4e5f?iss=https%3A%2F%2Fehr.test%2Ffhir&launch=abc')).toBe(true);
    expect(answeredByServer('/launch/callback?code=x&state=y')).toBe(true);
    expect(answeredByServer('/launch')).toBe(true);
    expect(answeredByServer('/launch?iss=x')).toBe(true);
  });

  it('answers the app pages named like them from the cache', () => {
    expect(answeredByServer('/launch_failed?reason=refused')).toBe(false);
    expect(answeredByServer('/launch_link')).toBe(false);
    expect(answeredByServer('/launched')).toBe(false);
    expect(answeredByServer('/')).toBe(false);
    expect(answeredByServer('/consultation/8f0c1c9e-3f4a-4b8e-9a55-0e1b2c3d4e5f')).toBe(false);
  });

  it('leaves the API, health, internal routes and the paste window to the server', () => {
    for (const path of ['/v1/consultation_sessions', '/healthz', '/internal/metrics', '/paste?origin=x']) expect(answeredByServer(path)).toBe(true);
  });
});
