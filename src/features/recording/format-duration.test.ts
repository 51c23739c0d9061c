import { describe, expect, it } from 'vitest';
import { formatElapsed } from './format-duration';

describe('formatElapsed', () => {
  it.each([
    [0, '0:00'],
    [999, '0:00'],
    [65_000, '1:05'],
    [600_000, '10:00'],
    [3_725_000, '1:02:05'],
    [-5, '0:00'],
  ])('%i ms → %s', (ms, text) => expect(formatElapsed(ms)).toBe(text));
});
