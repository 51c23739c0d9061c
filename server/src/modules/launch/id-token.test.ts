/**
 * The ID token's keys are read only where the outbound guard lets this server connect, and only a bounded key set:
 * checked against a key set served here, and addresses that must never be asked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../auth/one-time-tokens.js';
import { IdTokenRefused, verifyIdToken, type IdTokenExpectation } from './id-token.js';

let server: Server;
let origin = '';
let privateKey: CryptoKey;
let keySet: unknown;
/** Paths asked for, in order. */
const asked: string[] = [];
beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  keySet = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/keys') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(keySet));
    // Large enough to hold the key set, and far too large for one.
    if (req.url === '/huge')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...(keySet as object), padding: 'x'.repeat(400_000) }));
    if (req.url === '/moved') return res.writeHead(302, { location: `${origin}/keys` }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const NONCE = 'the-launch-nonce';
const expecting = (jwksUri: string, allowPrivate = true): IdTokenExpectation => ({
  issuer: 'https://ehr.example/fhir',
  jwksUri,
  clientId: 'app',
  nonceHash: sha256(NONCE),
  allowPrivate,
});
const token = () =>
  new SignJWT({ nonce: NONCE, email: 'a@b.test' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer('https://ehr.example/fhir')
    .setAudience('app')
    .setSubject('s')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
/** The refusal, or undefined when the token was believed. */
const refusal = async (jwksUri: string, allowPrivate = true) => {
  try {
    await verifyIdToken(await token(), expecting(jwksUri, allowPrivate));
    return undefined;
  } catch (err) {
    if (!(err instanceof IdTokenRefused)) throw err;
    return err;
  }
};

describe('the ID token’s keys', () => {
  it('are read from the key set the record system names, and the token believed', async () => {
    const claims = await verifyIdToken(await token(), expecting(`${origin}/keys`));
    expect(claims).toMatchObject({ sub: 's', email: 'a@b.test' });
    expect(asked).toContain('/keys');
  });

  it('are never asked of loopback or private addresses unless the server allows private networks, nor of a metadata address at all', async () => {
    const before = asked.length;
    for (const address of [
      `${origin}/keys`,
      `https://127.0.0.1:${new URL(origin).port}/keys`,
      'https://localhost/keys',
      'https://[::1]/keys',
      'https://10.0.0.8/keys',
      'https://[::ffff:7f00:1]/keys',
    ]) {
      const refused = await refusal(address, false);
      expect(refused?.unreachable, address).toBe(true);
    }
    for (const address of [
      'http://169.254.169.254/latest/keys',
      'http://[::ffff:169.254.169.254]/keys',
      'http://[fe80::1]/keys',
      'http://metadata.google.internal/keys',
      'http://instance-data./keys',
    ]) {
      const refused = await refusal(address, true);
      expect(refused?.unreachable, address).toBe(true);
    }
    expect(asked.length).toBe(before);
  });

  it('are refused when the answer is too large or a redirect (which is not followed)', async () => {
    expect((await refusal(`${origin}/huge`))?.unreachable).toBe(true);
    const before = asked.length;
    expect((await refusal(`${origin}/moved`))?.unreachable).toBe(true);
    expect(asked.slice(before)).toEqual(['/moved']);
    expect((await refusal(`${origin}/missing`))?.unreachable).toBe(true);
  });

  it('are not asked at all for a token too long to be one', async () => {
    const before = asked.length;
    await expect(verifyIdToken('x'.repeat(20_000), expecting(`${origin}/keys`))).rejects.toBeInstanceOf(IdTokenRefused);
    expect(asked.length).toBe(before);
  });
});
