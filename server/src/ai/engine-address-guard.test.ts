/**
 * Requests to AI engines never reach a cloud metadata address, whatever form it is written in, whatever name leads
 * to it; engines on this machine or the clinic's network stay reachable.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMetadataAddress } from '../../../contract/ip-address.js';
import { guardedLookup, isNonPublicAddress } from '../security/outbound-guard.js';
import { engineFailureSummary, guardedFetch } from './engine-check.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const METADATA_FORMS = [
  '169.254.169.254',
  // Alibaba Cloud's and Oracle Cloud's metadata services, and one inside IPv6.
  '100.100.100.200',
  '192.0.0.192',
  '[::ffff:6464:64c8]',
  '[::ffff:a9fe:a9fe]',
  '[::ffff:169.254.169.254]',
  '[0:0:0:0:0:ffff:a9fe:a9fe]',
  '[::a9fe:a9fe]',
  '[64:ff9b::a9fe:a9fe]',
  '[fe80::1]',
  '[fd00:ec2::254]',
  'metadata.google.internal',
  'metadata.google.internal.',
  '2852039166',
  '0xa9.0xfe.0xa9.0xfe',
  '169.254.169.254.',
];

describe('the AI engine address guard', () => {
  it('knows a metadata address in every written form, and nothing else', () => {
    for (const host of METADATA_FORMS) expect(isMetadataAddress(new URL(`http://${host}/v1`).hostname), host).toBe(true);
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '10.0.0.5',
      'ollama.clinic.lan',
      'api.openai.com',
      '[::ffff:7f00:1]',
      '[2001:db8::1]',
      '100.100.100.201',
      '192.0.0.193',
    ])
      expect(isMetadataAddress(new URL(`http://${host}/v1`).hostname), host).toBe(false);
  });

  it('refuses them at request time, before any connection, and still reaches an engine on this machine', async () => {
    const call = guardedFetch();
    expect((await call(`${base}/v1/models`)).status).toBe(200);
    for (const host of METADATA_FORMS) await expect(call(`http://${host}/v1/models`), host).rejects.toMatchObject({ code: 'EADDRNOTALLOWED' });
  });

  it('refuses a name that resolves to one, checking every address the connection would use', async () => {
    const resolving = (addresses: string[]) => (_h: string, _o: unknown, cb: (e: null, list: { address: string; family: number }[]) => void) =>
      cb(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    const lookup = (addresses: string[]) =>
      new Promise<unknown>((resolve) =>
        guardedLookup(isMetadataAddress, resolving(addresses))('engine.example', { all: true }, (err, list) => resolve(err ?? list)),
      );
    await expect(lookup(['169.254.169.254'])).resolves.toMatchObject({ code: 'EADDRNOTALLOWED' });
    await expect(lookup(['203.0.113.7', '::ffff:a9fe:a9fe'])).resolves.toMatchObject({ code: 'EADDRNOTALLOWED' });
    await expect(lookup(['10.0.0.5'])).resolves.toEqual([{ address: '10.0.0.5', family: 4 }]);
  });

  it("tells the administrator the kind of failure, never this server's own error text", async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://[::ffff:a9fe:a9fe]/v1', maxRetries: 0, fetch: guardedFetch() });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(engineFailureSummary(err)).toBe('The AI engine could not answer (address_not_allowed).');
  });

  it('checks an IPv4 address inside IPv6 as IPv4 for the FHIR guard too', () => {
    for (const address of ['::ffff:a9fe:a9fe', '::ffff:7f00:1', '64:ff9b::a00:5', '::ffff:10.0.0.5']) expect(isNonPublicAddress(address), address).toBe(true);
    expect(isNonPublicAddress('::ffff:cb00:7107')).toBe(false);
  });
});
