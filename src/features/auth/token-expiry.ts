import { jwtDecode } from 'jwt-decode';

export const EXPIRY_CHECK_INTERVAL_MS = 1000;

/** The token's `exp` in milliseconds, or undefined when it cannot be read (treated as expired). */
export function tokenExpiresAt(token: string): number | undefined {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Spec §5: a login is valid only if a token exists and its exp has not passed. */
export function isTokenValid(token: string | undefined, now = Date.now()): boolean {
  if (!token) return false;
  const exp = tokenExpiresAt(token);
  return exp !== undefined && exp > now;
}

/** Checks every second; calls onExpired once when the current token stops being valid. Returns a stop function. */
export function watchTokenExpiry(getToken: () => string | undefined, onExpired: () => void, intervalMs = EXPIRY_CHECK_INTERVAL_MS): () => void {
  let reported: string | undefined;
  const timer = setInterval(() => {
    const token = getToken();
    if (token && token !== reported && !isTokenValid(token)) {
      reported = token;
      onExpired();
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
