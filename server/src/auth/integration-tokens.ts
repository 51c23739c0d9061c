/**
 * Sign-in tokens from other systems (a hospital's record system): HS256 JWTs signed with INTEGRATION_KEY that
 * name the clinician (`email`, or `sub`) and carry `jti`, `iat` and `exp`. Each is good for one sign-in within
 * at most MAX_LIFETIME_SECONDS: the SHA-256 of every spent `jti` is kept in used_integration_tokens until the
 * token expires, so a replay fails in any API process and after a restart.
 */
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { usedIntegrationTokens } from '../db/schema.js';
import { DomainError } from '../errors/domain-error.js';
import { sha256 } from './one-time-tokens.js';

export const MAX_LIFETIME_SECONDS = 5 * 60;
/** Tolerated difference between the other system's clock and ours. */
export const CLOCK_SKEW_SECONDS = 30;

const invalid = () => new DomainError(401, 'invalid_or_expired_token', 'This link is invalid or has expired');

/**
 * Checks the token and spends it; answers the e-mail it names. Reasons beyond "invalid or expired" are told only
 * for a correctly signed token, so they help the integrator without helping a forger.
 */
export async function spendIntegrationToken(db: Database, token: string, key: string, now = Date.now()): Promise<string> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(key), {
      algorithms: ['HS256'],
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: new Date(now),
    }));
  } catch (err) {
    // A correctly signed token whose `iat`, `exp` or `nbf` is not a number: the integrator's mistake, said so.
    if (err instanceof joseErrors.JWTClaimValidationFailed && err.reason === 'invalid') throw badClaims();
    throw invalid();
  }
  const { jti, iat, exp } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256 || typeof iat !== 'number' || typeof exp !== 'number') {
    throw badClaims();
  }
  const nowSeconds = now / 1000;
  if (exp - iat > MAX_LIFETIME_SECONDS || iat > nowSeconds + CLOCK_SKEW_SECONDS || exp > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
    throw new DomainError(
      401,
      'token_lifetime_too_long',
      `Sign-in tokens must expire at most ${MAX_LIFETIME_SECONDS} seconds after they are issued, and not be issued in the future`,
    );
  }
  const email = typeof payload.email === 'string' ? payload.email : payload.sub;
  if (!email) throw badClaims();

  // Spent tokens past their expiry can no longer be presented (jose refuses them): forget them on the way.
  await db.delete(usedIntegrationTokens).where(lt(usedIntegrationTokens.expiresAt, sql`now()`));
  const spent = await db
    .insert(usedIntegrationTokens)
    .values({ jtiHash: sha256(jti), expiresAt: new Date((exp + CLOCK_SKEW_SECONDS) * 1000) })
    .onConflictDoNothing()
    .returning({ jtiHash: usedIntegrationTokens.jtiHash });
  if (spent.length === 0) throw new DomainError(401, 'token_already_used', 'This sign-in token has already been used');
  return email;
}

function badClaims() {
  return new DomainError(401, 'token_claims_missing', 'Sign-in tokens must carry jti, iat, exp and the email (or sub) of the clinician');
}
