import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../offline/storage-keys';
import { deviceHeaders, deviceId } from './device-id';

describe('device id', () => {
  beforeEach(() => localStorage.clear());

  it('is made once, kept in localStorage and shaped as the server accepts it', () => {
    const first = deviceId();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(localStorage.getItem(STORAGE_KEYS.deviceId)).toBe(first);
    expect(deviceId()).toBe(first);
    expect(deviceHeaders()).toEqual({ 'x-device-id': first });
  });

  it('replaces a tampered value, and differs between browsers', () => {
    localStorage.setItem(STORAGE_KEYS.deviceId, 'bad value!');
    const id = deviceId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    localStorage.clear();
    expect(deviceId()).not.toBe(id);
  });

  it('sends nothing when storage is blocked', () => {
    const spy = vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    try {
      expect(deviceId()).toBeUndefined();
      expect(deviceHeaders()).toEqual({});
    } finally {
      spy.mockRestore();
    }
  });
});
