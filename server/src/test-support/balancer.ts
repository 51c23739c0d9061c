/**
 * A small reverse proxy in front of several API processes, for the scale test and the benchmarks: round robin,
 * a new upstream connection per request (as nginx does by default), and the next upstream tried when one cannot
 * be reached or drops the connection before answering (nginx's `proxy_next_upstream error non_idempotent`; the
 * API's writes are idempotent: a part is stored once per order). It counts every answer it gives by status.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const MAX_BODY = 64 * 1024 * 1024;

export type Balancer = {
  base: string;
  setUpstreams(bases: string[]): void;
  /** Answers given, by status (502: no upstream could answer). */
  statuses: Map<number, number>;
  /** Requests sent again to another upstream after a connection error. */
  retried: number;
  /** Why each upstream could not be used (method, path, upstream, error code), for a failing test to say. */
  errors: string[];
  close(): Promise<void>;
};

export async function startBalancer(initial: string[]): Promise<Balancer> {
  let upstreams = [...initial];
  let next = 0;
  const statuses = new Map<number, number>();
  const counted = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const state = { retried: 0 };
  const errors: string[] = [];

  function forward(base: string, req: IncomingMessage, body: Buffer, res: ServerResponse, tried: string[]): Promise<'answered' | 'unreachable'> {
    return new Promise((resolve) => {
      const target = new URL(req.url ?? '/', base);
      const upstream = httpRequest(
        target,
        {
          method: req.method,
          headers: { ...req.headers, host: target.host, connection: 'close', 'x-forwarded-for': req.socket.remoteAddress ?? '' },
          agent: false,
        },
        (answer) => {
          counted(answer.statusCode ?? 0);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
          resolve('answered');
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        errors.push(`${req.method} ${target.pathname} ${base} ${err.code ?? err.message}`);
        tried.push(`${base} ${err.code ?? err.message}`);
        resolve('unreachable');
      });
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  }

  // A client that hangs up while sending (a recorder killed by the test) makes reading the body throw "aborted":
  // nothing is forwarded and the connection is dropped, as a proxy does, instead of an unhandled rejection.
  const server: Server = createServer((req, res) => void relay(req, res).catch(() => res.destroy()));

  async function relay(req: IncomingMessage, res: ServerResponse) {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_BODY) return void res.destroy();
      parts.push(c as Buffer);
    }
    const body = Buffer.concat(parts);
    const tried: string[] = [];
    // Every upstream in turn from this request's place in the rotation, twice over, before giving up.
    const first = next++;
    for (let attempt = 0; attempt < Math.max(2, upstreams.length * 2); attempt++) {
      if (res.destroyed) return;
      const list = upstreams;
      if (!list.length) break;
      const base = list[(first + attempt) % list.length]!;
      if ((await forward(base, req, body, res, tried)) === 'answered') return;
      state.retried++;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
    counted(502);
    errors.push(`${req.method} ${req.url} gave up: no upstream answered (${tried.join('; ')})`);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'bad_gateway', message: 'No API process answered' } }));
  }
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setUpstreams: (bases) => {
      upstreams = [...bases];
    },
    statuses,
    errors,
    get retried() {
      return state.retried;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
