import { describe, expect, it } from 'vitest';
import { awaitedOnDevice, formatCountdown, missingCount, timeLeft } from './awaited-parts';

describe('the parts the notes wait for, on this device', () => {
  it('keeps the deadline on this device clock, from the time left when the server answered', () => {
    const missing = [{ first_order: 3, last_order: 3, device: 'phone' as const }];
    const kept = awaitedOnDevice({ missing, write_without_at: '2020-01-01T00:00:00.000Z', write_without_in_ms: 460_000 }, 1_000_000);
    expect(kept).toEqual({ missing, deadline: 1_460_000 });
    expect(timeLeft(kept!.deadline, 1_000_000)).toBe(460_000);
    expect(timeLeft(kept!.deadline, 2_000_000)).toBe(0);
  });

  it('keeps nothing when nothing is awaited', () => {
    expect(awaitedOnDevice(null)).toBeNull();
    expect(awaitedOnDevice(undefined)).toBeNull();
    expect(awaitedOnDevice({ missing: [], write_without_at: '', write_without_in_ms: 5 })).toBeNull();
  });

  it('counts down in whole seconds, rounded up, and never below zero', () => {
    expect(formatCountdown(460_000)).toBe('7:40');
    expect(formatCountdown(459_001)).toBe('7:40');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5_000)).toBe('0:00');
  });

  it('counts every part of every stretch', () => {
    expect(
      missingCount([
        { first_order: 1, last_order: 1, device: 'computer' },
        { first_order: 4, last_order: 6, device: 'phone' },
      ]),
    ).toBe(4);
  });
});
