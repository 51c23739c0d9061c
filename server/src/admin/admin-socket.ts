/**
 * The admin CLI's way into a running server that holds the embedded database (PGlite allows one process).
 *
 * It is a Unix socket, DATA_DIR/admin.sock, created with mode 0600 inside the 0700 data folder, and nothing
 * reachable over the network (no URL, header or address check that a crafted request could slip past) leads to
 * it. The HTTP app has no admin route at all. The file mode is not the only guard: each connection's user, as
 * the kernel recorded it, must be the server's own user or root, otherwise the request is refused and logged.
 */
import { existsSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { UsageError } from './usage-error.js';
import { peerUid } from './peer-credentials.js';

export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

/** Unix socket paths are limited to 107 bytes on Linux; past that the channel cannot exist. */
const MAX_SOCKET_PATH = 100;
const MAX_BODY_BYTES = 64 * 1024;

const commandBody = z.object({ command: z.string().max(50), args: z.record(z.string(), z.unknown()) });

export type RunAdminCommand = (command: string, args: Record<string, unknown>) => Promise<string[]>;

export type AdminSocket = { path: string; close: () => Promise<void> };

export type AdminSocketOptions = {
  /** Tells who connected; replaced in tests to play another user. */
  peerUid?: (socket: Socket) => number | undefined;
  /** Told of each refused connection: the peer's uid only, never what it sent. */
  onRefused?: (peer: { uid: number | null }) => void;
};

/**
 * The server's own user, and root: root can already read the data folder, the keys and the server's memory, so
 * refusing it would protect nothing and only keep an operator using sudo from the commands.
 */
export function mayAdminister(uid: number | undefined, ownUid: number): boolean {
  return uid !== undefined && (uid === ownUid || uid === 0);
}

export const REFUSED_MESSAGE = 'Refused: only the operating-system user running the server (or root) may send admin commands.';

function answer(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Listens on DATA_DIR/admin.sock; the caller must hold the data folder's process lock (a stale socket is removed). */
export async function startAdminSocket(
  dataDir: string,
  run: RunAdminCommand,
  onError: (err: unknown) => void,
  options: AdminSocketOptions = {},
): Promise<AdminSocket | undefined> {
  const whoIsThere = options.peerUid ?? peerUid;
  // Without getuid (not a POSIX system) nobody can be matched, so every connection is refused.
  const ownUid = process.getuid?.() ?? -1;
  const socketPath = adminSocketPath(dataDir);
  if (socketPath.length > MAX_SOCKET_PATH) return undefined;
  // Left by a process that died: we hold the lock, so nobody else is listening on it.
  if (existsSync(socketPath)) rmSync(socketPath, { force: true });

  const server = http.createServer((req, res) => {
    // Asked before anything of the request is read: a refused peer's body is never parsed, let alone run.
    const uid = whoIsThere(req.socket);
    if (!mayAdminister(uid, ownUid)) {
      options.onRefused?.({ uid: uid ?? null });
      res.shouldKeepAlive = false;
      // Not kept alive: the connection closes once the refusal is written.
      return answer(res, 403, { error: { message: REFUSED_MESSAGE } });
    }
    if (req.method !== 'POST' || req.url !== '/run') return answer(res, 404, { error: { message: 'Not found' } });
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else parts.push(c);
    });
    req.on('end', () => {
      let body: z.infer<typeof commandBody>;
      try {
        body = commandBody.parse(JSON.parse(Buffer.concat(parts).toString('utf8')));
      } catch {
        return answer(res, 400, { error: { message: 'Invalid admin request' } });
      }
      run(body.command, body.args).then(
        (lines) => answer(res, 200, { lines }),
        (err: unknown) => {
          if (err instanceof UsageError) return answer(res, 400, { error: { message: err.message } });
          onError(err);
          answer(res, 500, { error: { message: 'The command failed; see the server log.' } });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // The process umask already makes it 0600; this holds even if someone runs the server with a looser one.
  await chmod(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The CLI's side: sends one command to the server listening on the socket and answers its printed lines. */
export async function sendAdminCommand(dataDir: string, command: string, args: Record<string, unknown>): Promise<string[]> {
  const payload = JSON.stringify({ command, args });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: adminSocketPath(dataDir),
        path: '/run',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          let body: { lines?: string[]; error?: { message?: string } } = {};
          try {
            body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
          } catch {
            // an unreadable answer is reported by status below
          }
          if (res.statusCode === 200) resolve(body.lines ?? []);
          else if (res.statusCode === 403) reject(new UsageError(body.error?.message ?? 'The running server refused this user'));
          else if (res.statusCode === 400) reject(new UsageError(body.error?.message ?? 'The running server refused the command'));
          else reject(new Error(body.error?.message ?? `The running server could not run the command (${res.statusCode})`));
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
