/** IP addresses as users write them: every form of an IPv6 address, and the IPv4 addresses some of them carry. */
/** The eight 16-bit groups of an IPv6 address (any written form, an IPv4 tail included), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const v4 = text.match(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const b = v4.slice(1).map(Number);
    if (b.some((n) => n > 255)) return undefined;
    text = `${text.slice(0, v4.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (h: string) => (h ? h.split(':') : []);
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * Whether an address or host name is a cloud metadata service's: IPv4 link-local (169.254.0.0/16), IPv6
 * link-local (fe80::/10), AWS's fd00:ec2::/32, Alibaba Cloud's 100.100.100.200 and Oracle Cloud's 192.0.0.192,
 * those IPv4 addresses inside IPv6 (mapped, compatible, translated or NAT64, in any written form) and the metadata
 * host names, with or without a trailing dot. No engine lives there, and a request must never reach one.
 */
const METADATA_V4 = (a: number, b: number, c: number, d: number) =>
  (a === 169 && b === 254) || (a === 100 && b === 100 && c === 100 && d === 200) || (a === 192 && b === 0 && c === 0 && d === 192);

export function isMetadataAddress(hostname: string): boolean {
  const h = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (['metadata.google.internal', 'metadata', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal'].includes(h)) return true;
  const v4 = h.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) return METADATA_V4(Number(v4[1]), Number(v4[2]), Number(v4[3]), Number(v4[4]));
  const g = h.includes(':') ? ipv6Groups(h) : undefined;
  if (!g) return false;
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0] === 0xfd00 && g[1] === 0x0ec2)) return true;
  const inner = embeddedIpv4(h)?.split('.').map(Number);
  return inner ? METADATA_V4(inner[0]!, inner[1]!, inner[2]!, inner[3]!) : false;
}

/**
 * The IPv4 address an IPv6 address carries, whatever its written form: ::ffff:a.b.c.d (mapped), ::a.b.c.d
 * (compatible), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d (NAT64); undefined for any other.
 */
export function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address.replace(/^\[|\]$/g, ''));
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embeds =
    (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) || (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) || (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6));
  if (!embeds || (zeros(0, 6) && g[6]! < 0x100)) return undefined; // '::' and '::1' are IPv6's own
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
}
