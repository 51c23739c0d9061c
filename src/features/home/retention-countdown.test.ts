import { describe, expect, it } from 'vitest';
import { timeLeft } from './retention-countdown';

const now = Date.parse('2026-11-22T10:00:00Z');

describe('timeLeft', () => {
  it('gives hours and minutes, rounding up', () => {
    expect(timeLeft('2026-11-22T11:00:00Z', now)).toEqual({ hours: 1, minutes: 0, expired: false });
    expect(timeLeft('2026-11-22T10:59:30Z', now)).toEqual({ hours: 1, minutes: 0, expired: false });
    expect(timeLeft('2026-11-22T10:58:59Z', now)).toEqual({ hours: 0, minutes: 59, expired: false });
    expect(timeLeft('2026-11-22T10:00:20Z', now)).toEqual({ hours: 0, minutes: 1, expired: false });
    expect(timeLeft('2026-11-23T12:05:00Z', now)).toEqual({ hours: 26, minutes: 5, expired: false });
  });

  it('is expired at or after the deadline, or without one', () => {
    expect(timeLeft('2026-11-22T10:00:00Z', now).expired).toBe(true);
    expect(timeLeft('2026-11-22T09:00:00Z', now).expired).toBe(true);
    expect(timeLeft(null, now).expired).toBe(true);
    expect(timeLeft('not a date', now).expired).toBe(true);
  });
});
