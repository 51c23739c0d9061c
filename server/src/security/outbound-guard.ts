/**
 * Requests this server makes to addresses a user typed (an organization's FHIR server). An organization admin is
 * not the server's admin: unless the server allows private networks (FHIR_ALLOW_PRIVATE_NETWORKS), such a request
 * goes over https to a public address only, never to loopback, the local network, link-local (cloud metadata) or
 * multicast addresses. The address is checked where the connection is made, after DNS, so a name that resolves to
 * a private address (or changes its answer between a check and the connection) is refused too. Redirects are not
 * followed by the callers.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent } from 'undici';
import { embeddedIpv4, isMetadataAddress } from '../../../contract/ip-address.js';
import { DomainError } from '../errors/domain-error.js';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['::', 96],
  ['::ffff:0:0:0', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True for an address no user-given URL may reach (an IPv4 address inside IPv6, in any written form, is checked as IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const inner = embeddedIpv4(address);
  if (inner) return blocked.check(inner, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const addressRefused = (field: string) =>
  new DomainError(400, 'invalid_request', 'The address must be https on a public network (this server does not allow private networks)', {
    [field]: 'address_not_allowed',
  });

/** A URL a user gave, checked before use: an http(s) URL without credentials, and https to a public host unless private networks are allowed. */
export function checkOutboundUrl(raw: string, allowPrivate: boolean, field = 'base_url'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError(400, 'invalid_request', 'Not a valid address', { [field]: 'invalid_url' });
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new DomainError(400, 'invalid_request', 'The address must be http(s), without a user name or password in it', { [field]: 'invalid_url' });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Private networks may be allowed (a record system on the clinic's network); a cloud metadata service never is.
  if (isMetadataAddress(host)) throw addressRefused(field);
  if (allowPrivate) return url;
  if (url.protocol !== 'https:' || (isIP(host) && isNonPublicAddress(host)) || host === 'localhost' || host.endsWith('.localhost')) throw addressRefused(field);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const dispatchers = new Map<boolean, Agent>();
/** One guarded dispatcher per setting, shared by every outbound call (its connections are pooled). */
export function guardedDispatcher(allowPrivate: boolean): Agent {
  let d = dispatchers.get(allowPrivate);
  if (!d) dispatchers.set(allowPrivate, (d = outboundDispatcher(allowPrivate)));
  return d;
}

/** The error a refused connection fails with: callers tell it apart by its code. */
export function addressNotAllowed(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to an address this server does not connect to`);
  error.code = 'EADDRNOTALLOWED';
  return error;
}

type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A DNS lookup for undici's connections that refuses a name when any address it resolves to is `refused`: the
 * check is made on the addresses the connection will use, so a name changing its answer after a check gains nothing.
 */
export function guardedLookup(refused: (address: string) => boolean, resolve: Resolve = dnsLookup as unknown as Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolve(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, '');
      if (list.length === 0 || list.some((a) => refused(a.address))) return callback(addressNotAllowed(hostname), '');
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

let engineAgent: Agent | undefined;
/**
 * The dispatcher of every request to an AI engine. Engines may run on the clinic's own network or this machine
 * (set by the server's administrator), but never on a cloud metadata address, in any written form or behind any
 * name; an address written as a literal is checked by `refuseMetadataUrl` before the request, since undici makes
 * no lookup for it.
 */
export function engineDispatcher(): Agent {
  engineAgent ??= new Agent({ connect: { lookup: guardedLookup(isMetadataAddress), timeout: 10_000 } });
  return engineAgent;
}

/** Refuses, before any connection, a request whose address is a metadata service's written as a literal or a known name. */
export function refuseMetadataUrl(url: string | URL): void {
  const host = new URL(url).hostname;
  if (isMetadataAddress(host)) throw addressNotAllowed(host);
}

const strictDispatchers = new Map<boolean, Agent>();
/**
 * Like `guardedDispatcher`, and never to a cloud metadata address even where private networks are allowed: for a
 * record system's published keys and OpenID configuration, whose addresses its own configuration names (a
 * literal address is checked by `refuseMetadataUrl` before the request, since undici makes no lookup for it).
 */
export function strictGuardedDispatcher(allowPrivate: boolean): Agent {
  let d = strictDispatchers.get(allowPrivate);
  if (!d) {
    const lookup = guardedLookup((address) => isMetadataAddress(address) || (!allowPrivate && isNonPublicAddress(address)));
    strictDispatchers.set(allowPrivate, (d = new Agent({ connect: { lookup, timeout: 10_000 }, headersTimeout: 10_000, bodyTimeout: 10_000 })));
  }
  return d;
}

/**
 * An undici dispatcher whose connections refuse non-public addresses (unless allowed), and cloud metadata
 * addresses always: pass it as `dispatcher` to fetch.
 */
export function outboundDispatcher(allowPrivate: boolean): Agent {
  const lookup = guardedLookup((address) => isMetadataAddress(address) || (!allowPrivate && isNonPublicAddress(address)));
  return new Agent({ connect: { lookup, timeout: 10_000 }, headersTimeout: 30_000, bodyTimeout: 30_000 });
}
