import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOutdatedClient } from './outdated-client-reload';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the outdated-client reload', () => {
  it('happens once per outdated version in the whole browser, not once per tab', () => {
    const firstTab = vi.fn();
    const secondTab = vi.fn();
    reloadOutdatedClient('/', firstTab, '0.0.20');
    // Another tab has its own sessionStorage; localStorage is what the tabs share.
    sessionStorage.clear();
    reloadOutdatedClient('/settings', secondTab, '0.0.20');
    reloadOutdatedClient('/', firstTab, '0.0.20');
    expect(firstTab).toHaveBeenCalledTimes(1);
    expect(secondTab).not.toHaveBeenCalled();
  });

  it('reloads once again when a later version is outdated in its turn', () => {
    const reload = vi.fn();
    reloadOutdatedClient('/', reload, '0.0.20');
    reloadOutdatedClient('/', reload, '0.0.21');
    reloadOutdatedClient('/', reload, '0.0.21');
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads under a consultation', () => {
    const reload = vi.fn();
    reloadOutdatedClient('/consultation/9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', reload, '0.0.20');
    expect(reload).not.toHaveBeenCalled();
    reloadOutdatedClient('/', reload, '0.0.20');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
