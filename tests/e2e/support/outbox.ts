import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function decodeBody(eml: string): string {
  const [head = '', ...rest] = eml.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The first link in the newest outbox mail to `to` (the server's default mail transport writes .eml files). */
export function lastMailedLink(serverName: string, to: string): string {
  const dir = path.resolve('.tmp/e2e', serverName, 'outbox');
  const files = readdirSync(dir).sort().reverse();
  for (const f of files) {
    const eml = readFileSync(path.join(dir, f), 'utf8');
    if (!eml.includes(`To: ${to}`)) continue;
    const link = decodeBody(eml).match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
  }
  throw new Error(`no mail with a link to ${to}`);
}
