import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRY_CHECK_INTERVAL_MS, isTokenValid, watchTokenExpiry } from './token-expiry';

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const jwt = (exp?: number) => `${b64({ alg: 'HS256' })}.${b64(exp === undefined ? {} : { exp })}.sig`;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('isTokenValid', () => {
  it('needs a token whose exp has not passed', () => {
    const now = Date.now() / 1000;
    expect(isTokenValid(jwt(now + 60))).toBe(true);
    expect(isTokenValid(jwt(now - 1))).toBe(false);
    expect(isTokenValid(jwt())).toBe(false);
    expect(isTokenValid('garbage')).toBe(false);
    expect(isTokenValid(undefined)).toBe(false);
  });
});

describe('watchTokenExpiry', () => {
  it('checks every second and reports an expiry once', () => {
    expect(EXPIRY_CHECK_INTERVAL_MS).toBe(1000);
    const token = jwt(Date.now() / 1000 + 3);
    const onExpired = vi.fn();
    const stop = watchTokenExpiry(() => token, onExpired);
    vi.advanceTimersByTime(2000);
    expect(onExpired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(onExpired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(onExpired).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stays quiet without a token and after stop', () => {
    const onExpired = vi.fn();
    let token: string | undefined;
    const stop = watchTokenExpiry(() => token, onExpired);
    vi.advanceTimersByTime(3000);
    expect(onExpired).not.toHaveBeenCalled();
    stop();
    token = jwt(0);
    vi.advanceTimersByTime(3000);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('reports again for a new session that expires later', () => {
    const onExpired = vi.fn();
    let token = jwt(Date.now() / 1000 + 1);
    const stop = watchTokenExpiry(() => token, onExpired);
    vi.advanceTimersByTime(1000);
    expect(onExpired).toHaveBeenCalledTimes(1);
    token = jwt(Date.now() / 1000 + 2);
    vi.advanceTimersByTime(3000);
    expect(onExpired).toHaveBeenCalledTimes(2);
    stop();
  });
});
