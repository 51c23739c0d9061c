import { afterEach, describe, expect, it, vi } from 'vitest';
import { readStoredRecord, writeStoredRecord } from './stored-records';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('records kept in localStorage', () => {
  it('reads a missing, corrupt or non-object entry as empty', () => {
    expect(readStoredRecord('absent')).toEqual({});
    localStorage.setItem('corrupt', '{not json');
    expect(readStoredRecord('corrupt')).toEqual({});
    localStorage.setItem('scalar', '42');
    expect(readStoredRecord('scalar')).toEqual({});
  });

  it('keeps only the most recently touched entries when bounded', () => {
    const record = { a: { at: 1 }, b: { at: 3 }, c: { at: 2 } };
    expect(writeStoredRecord('bounded', record, { count: 2, touchedAt: (e) => e.at })).toBe(true);
    expect(readStoredRecord('bounded')).toEqual({ b: { at: 3 }, c: { at: 2 } });
  });

  it('says so when the storage refuses the write, without throwing', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(writeStoredRecord('full', { a: 1 })).toBe(false);
  });
});
