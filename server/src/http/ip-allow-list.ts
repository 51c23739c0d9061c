/** Lists of addresses and networks an operator writes in a setting ("127.0.0.1, ::1, 10.0.0.0/8"). */
import { BlockList, isIP } from 'node:net';

/** Comma-separated IP addresses and CIDR networks, IPv4 or IPv6; throws on an entry that is neither. */
export function parseAllowList(text: string): BlockList {
  const list = new BlockList();
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) throw new Error(`not an IP address or network: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(address, type);
    } else {
      const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) throw new Error(`not an IP address or network: ${entry}`);
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}
