/**
 * The ID token a record system's token endpoint returns at the end of a launch, believed only once verified: signed
 * with an asymmetric algorithm by a key the record system publishes (its `jwks_uri`), issued by the issuer its
 * configuration named when the launch began, for this app's launch client id, within its lifetime, and carrying the
 * nonce this launch sent with its authorization request (so a token minted for another launch, or replayed from an
 * earlier one, is refused).
 *
 * The keys are fetched through the outbound guard (the organization's network setting, and never a cloud metadata
 * address), with a timeout and a bounded answer, kept ten minutes, and fetched again when a token names a key not
 * among them (the record system rotated its keys).
 */
import { timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type FetchImplementation, type JWTPayload, type RemoteJWKSet } from 'jose';
import { fetch } from 'undici';
import { sha256 } from '../../auth/one-time-tokens.js';
import { checkOutboundUrl, refuseMetadataUrl, strictGuardedDispatcher } from '../../security/outbound-guard.js';

/** Public-key signatures only: never `none`, and never an HMAC, whose key a record system's public keys could stand in for. */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];
/** Clocks of the record system and of this server may differ by this much. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** A token issued longer ago than a launch lives was not issued for this launch's code. */
const MAX_TOKEN_AGE_SECONDS = 10 * 60;
const KEYS_TIMEOUT_MS = 10_000;
/** A key set of many RSA keys is a few kilobytes; anything far larger is not one. */
const KEYS_MAX_BYTES = 256 * 1024;
/** Key sets kept, one per record system's key address: fewer than the organizations of a large server. */
const KEY_SETS_KEPT = 500;
const ID_TOKEN_MAX_CHARS = 16_384;

/**
 * Why an ID token was not believed. `unreachable`: its keys could not be read (the record system's fault or its
 * setting's, not the clinician's). `detail`: for the server log, naming the check that failed, never the token.
 */
export class IdTokenRefused extends Error {
  constructor(
    readonly detail: string,
    readonly unreachable = false,
  ) {
    super(detail);
  }
}

/** An answer read up to `max` bytes; a larger one is an error, never cut and parsed. */
async function boundedBody(res: Awaited<ReturnType<typeof fetch>>, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    throw new Error(`the key set is larger than ${max} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      // Leaving the loop cancels the rest of the body.
      if (size > max) throw new Error(`the key set is larger than ${max} bytes`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/** jose's fetch for a key set, through the outbound guard: no redirect followed, a bounded answer. */
function guardedKeysFetch(allowPrivate: boolean): FetchImplementation {
  return async (url, init) => {
    refuseMetadataUrl(url);
    const res = await fetch(url, {
      method: init.method,
      headers: Object.fromEntries(init.headers),
      redirect: 'manual',
      signal: init.signal,
      dispatcher: strictGuardedDispatcher(allowPrivate),
    });
    const body = await boundedBody(res, KEYS_MAX_BYTES);
    return new Response(res.status === 200 ? body : null, {
      status: res.status,
      headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' },
    });
  };
}

const keySets = new Map<string, RemoteJWKSet>();

/** The record system's published keys, shared by its launches (the setting on private networks is part of the key). */
function keysAt(jwksUri: string, allowPrivate: boolean): RemoteJWKSet {
  const cacheKey = `${allowPrivate ? 'private' : 'public'} ${jwksUri}`;
  let keys = keySets.get(cacheKey);
  if (keys) return keys;
  const url = checkOutboundUrl(jwksUri, allowPrivate, 'jwks_uri');
  refuseMetadataUrl(url);
  keys = createRemoteJWKSet(url, {
    timeoutDuration: KEYS_TIMEOUT_MS,
    // A key not in the set fetches the set again at once: a record system that has just rotated its keys is not
    // refused. Tokens reach this server only from the token endpoint of a record system an admin entered, and
    // launches are rate-limited, so this is at most one more request to that record system per launch.
    cooldownDuration: 0,
    cacheMaxAge: 10 * 60_000,
    [customFetch]: guardedKeysFetch(allowPrivate),
  });
  if (keySets.size >= KEY_SETS_KEPT) keySets.delete(keySets.keys().next().value!);
  keySets.set(cacheKey, keys);
  return keys;
}

/** What the token must match: from the launch as it began. `nonceHash`: SHA-256 of the nonce sent when authorizing. */
export type IdTokenExpectation = { issuer: string; jwksUri: string; clientId: string; nonceHash: string; allowPrivate: boolean };

/** Errors that mean the keys could not be read, rather than that the token is wrong. */
const keysUnreadable = (err: unknown) =>
  !(err instanceof errors.JOSEError) || err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || err.code === 'ERR_JOSE_GENERIC';

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The ID token's claims, once every check has passed; otherwise IdTokenRefused. */
export async function verifyIdToken(idToken: string, expected: IdTokenExpectation): Promise<JWTPayload> {
  if (idToken.length > ID_TOKEN_MAX_CHARS) throw new IdTokenRefused('the ID token is too long');
  let keys: RemoteJWKSet;
  try {
    keys = keysAt(expected.jwksUri, expected.allowPrivate);
  } catch {
    throw new IdTokenRefused('the key set address is not allowed', true);
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      algorithms: ID_TOKEN_ALGORITHMS,
      issuer: expected.issuer,
      audience: expected.clientId,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      requiredClaims: ['exp', 'iat', 'nonce'],
    }));
  } catch (err) {
    if (keysUnreadable(err)) {
      // A connection's own code (a refused address, a timeout) says more than undici's "fetch failed".
      const why =
        (err as NodeJS.ErrnoException).code ??
        (err as { cause?: NodeJS.ErrnoException }).cause?.code ??
        (err instanceof Error ? err.message.slice(0, 200) : 'unknown');
      throw new IdTokenRefused(`the record system's keys could not be read (${why})`, true);
    }
    const { code } = err as errors.JOSEError;
    const claim = err instanceof errors.JWTClaimValidationFailed || err instanceof errors.JWTExpired ? ` ${err.claim}` : '';
    throw new IdTokenRefused(`the ID token failed verification (${code}${claim})`);
  }
  // Several audiences: OpenID Connect has the token name the one it was issued to; whoever it names must be this app.
  if (payload.azp !== undefined && payload.azp !== expected.clientId) throw new IdTokenRefused('the ID token was issued to another client (azp)');
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp === undefined)
    throw new IdTokenRefused('the ID token has several audiences and no azp');
  const nonce = payload.nonce;
  if (typeof nonce !== 'string' || !sameHash(sha256(nonce), expected.nonceHash)) {
    throw new IdTokenRefused('the ID token does not carry this launch’s nonce');
  }
  return payload;
}
