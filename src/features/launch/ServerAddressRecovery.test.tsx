import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerAddressRecovery } from './ServerAddressRecovery';

const shown = (ui: React.ReactElement) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('a launch address answered by an outdated service worker', () => {
  it('removes that worker and asks the server for the address again', async () => {
    const unregister = vi.fn(async () => true);
    const worker = { getRegistration: vi.fn(async () => ({ unregister }) as unknown as ServiceWorkerRegistration) };
    const reload = vi.fn();
    shown(<ServerAddressRecovery worker={worker} reload={reload} />);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(unregister).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });

  it('asks again only once: still here after that, it says what to do', async () => {
    sessionStorage.setItem('server_address_recovery', window.location.href);
    const reload = vi.fn();
    shown(<ServerAddressRecovery worker={{ getRegistration: vi.fn(async () => undefined) }} reload={reload} />);
    expect(screen.getByRole('alert').textContent).toContain('open the consultation again from the record system');
    await new Promise((r) => setTimeout(r, 20));
    expect(reload).not.toHaveBeenCalled();
  });

  it('asks again even when no worker can be found or removed', async () => {
    const reload = vi.fn();
    shown(<ServerAddressRecovery worker={{ getRegistration: vi.fn(async () => Promise.reject(new Error('denied'))) }} reload={reload} />);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
