import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../offline/storage-keys';
import { loadWebFont } from './web-font';

const load = vi.fn<(font: string) => Promise<unknown[]>>();

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  delete document.documentElement.dataset.font;
  load.mockReset();
  Object.defineProperty(document, 'fonts', { configurable: true, value: { load } });
});
afterEach(() => vi.useRealTimers());

describe('the app’s typeface', () => {
  it('is used from the start once this browser has loaded it before', () => {
    localStorage.setItem(STORAGE_KEYS.webFont, '1');
    loadWebFont();
    expect(document.documentElement.dataset.font).toBe('inter');
    expect(load).not.toHaveBeenCalled();
  });

  it('on a first visit is fetched only after the page loaded and settled, then used and remembered', async () => {
    load.mockResolvedValue([{}]);
    loadWebFont(); // jsdom's document is complete already
    await vi.advanceTimersByTimeAsync(1000);
    expect(load).not.toHaveBeenCalled();
    expect(document.documentElement.dataset.font).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1000);
    expect(load).toHaveBeenCalledWith("400 1em 'Inter Variable'");
    expect(document.documentElement.dataset.font).toBe('inter');
    expect(localStorage.getItem(STORAGE_KEYS.webFont)).toBe('1');
  });

  it('stays on the local font when the file cannot be fetched, and tries again next visit', async () => {
    load.mockRejectedValue(new Error('offline'));
    loadWebFont();
    await vi.advanceTimersByTimeAsync(2000);
    expect(document.documentElement.dataset.font).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.webFont)).toBeNull();
  });
});
