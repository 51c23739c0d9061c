import { describe, expect, it, vi } from 'vitest';
import { configuredDsn, ERROR_REPORTING, initErrorReporting } from './error-reporting';

describe('error reporting', () => {
  it('loads nothing and sends nothing without a DSN', async () => {
    const load = vi.fn();
    expect(await initErrorReporting(undefined, load)).toBe(false);
    expect(load).not.toHaveBeenCalled();
  });

  it('initialises Sentry with environment production and release 1.0.0 when a DSN is configured', async () => {
    const init = vi.fn();
    const load = vi.fn(async () => ({ init, captureException: vi.fn() }) as unknown as typeof import('@sentry/react'));
    expect(await initErrorReporting('https://k@sentry.test/1', load)).toBe(true);
    expect(init).toHaveBeenCalledWith({ dsn: 'https://k@sentry.test/1', environment: 'production', release: '1.0.0' });
    expect(ERROR_REPORTING).toEqual({ environment: 'production', release: '1.0.0' });
  });

  it('reads the DSN from the meta tag the server writes', () => {
    document.head.innerHTML = '<meta name="sentry-dsn" content="">';
    expect(configuredDsn()).toBeUndefined();
    document.head.innerHTML = '<meta name="sentry-dsn" content="https://k@sentry.test/2">';
    expect(configuredDsn()).toBe('https://k@sentry.test/2');
  });
});
