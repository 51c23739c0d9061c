/**
 * The admin socket checks who connected, not only the socket file's mode: the kernel's record of the peer's user
 * must be the server's own user (or root). Another user is refused before the request is read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AdminSocket, mayAdminister, REFUSED_MESSAGE, sendAdminCommand, startAdminSocket } from './admin-socket.js';
import { peerUid } from './peer-credentials.js';

const ownUid = process.getuid!();
const dirs: string[] = [];
const sockets: AdminSocket[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startAdminSocket>[3] = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-peer-'));
  dirs.push(dataDir);
  const ran: string[] = [];
  const errors: unknown[] = [];
  const socket = await startAdminSocket(
    dataDir,
    async (command) => (ran.push(command), ['done']),
    (err) => errors.push(err),
    options,
  );
  sockets.push(socket!);
  return { dataDir, ran, errors };
}

describe('peer user of a Unix socket connection', () => {
  it('is our own user for a connection this process makes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-peer-'));
    dirs.push(dir);
    const file = path.join(dir, 's.sock');
    const seen = new Promise<number | undefined>((resolve) => {
      const server = net.createServer((s) => {
        resolve(peerUid(s));
        s.destroy();
        server.close();
      });
      server.listen(file, () => net.connect(file).on('error', () => {}));
    });
    expect(await seen).toBe(ownUid);
  });

  it('is unknown for a socket that is not a Unix connection', () => {
    expect(peerUid(new net.Socket())).toBeUndefined();
  });
});

describe('who may administer', () => {
  it('the server user and root, nobody else, and never an unknown user', () => {
    expect(mayAdminister(ownUid, ownUid)).toBe(true);
    expect(mayAdminister(0, ownUid)).toBe(true);
    expect(mayAdminister(ownUid + 4242, ownUid)).toBe(false);
    expect(mayAdminister(undefined, ownUid)).toBe(false);
  });
});

describe('admin socket', () => {
  it('runs a command sent by the server user, as the kernel reports it', async () => {
    const { dataDir, ran } = await start();
    expect(await sendAdminCommand(dataDir, 'verify-audit-log', {})).toEqual(['done']);
    expect(ran).toEqual(['verify-audit-log']);
  });

  it.each([
    ['another user', ownUid + 4242],
    ['a user that cannot be told', undefined],
  ])('refuses %s with a clear message, runs nothing and logs only the uid', async (_name, uid) => {
    const refused: unknown[] = [];
    const { dataDir, ran, errors } = await start({ peerUid: () => uid, onRefused: (peer) => refused.push(peer) });
    const secret = 'admin-secret@clinic.test';
    await expect(sendAdminCommand(dataDir, 'grant-server-admin', { email: secret })).rejects.toThrow(REFUSED_MESSAGE);
    expect(ran).toEqual([]);
    expect(errors).toEqual([]);
    expect(refused).toEqual([{ uid: uid ?? null }]);
    expect(JSON.stringify(refused)).not.toContain(secret);
  });

  it('closes a refused connection instead of keeping it open for another try', async () => {
    const { dataDir } = await start({ peerUid: () => ownUid + 4242 });
    const closed = await new Promise<string>((resolve) => {
      const c = net.connect(path.join(dataDir, 'admin.sock'), () => {
        c.write('POST /run HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
      });
      let text = '';
      c.on('data', (d: Buffer) => (text += String(d)));
      c.on('close', () => resolve(text));
    });
    expect(closed).toMatch(/^HTTP\/1\.1 403/);
    expect(closed.toLowerCase()).toContain('connection: close');
  });
});
