/**
 * Probes for an orchestrator (a kubelet, Docker Compose, a load balancer), unauthenticated and never rate-limited:
 *
 * - `GET /livez`: the process is alive and its event loop answers. Touches nothing else, so a database outage
 *   never gets a healthy process restarted.
 * - `GET /readyz`: this process can serve: the database answers a `select 1` and the file store (DATA_DIR/files or
 *   the S3 bucket) can be reached, each within READY_TIMEOUT_MS. A 503 names the checks that failed (`database`,
 *   `file_store`, or `stopping` while the process drains) and nothing more: no error text, host or bucket.
 *
 * `/healthz` (modules/healthz) stays as it was for the deployments and proxies already aimed at it: it checks
 * the database only.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { App, AppContext } from '../../http/context.js';
import { describeErrorSafely } from '../../http/safe-errors.js';

/** Well under a probe's usual 1 s–5 s timeout budget per check; both checks run at once. */
export const READY_TIMEOUT_MS = 2000;

const checkState = z.enum(['ok', 'failed', 'timeout']);
const livezResponse = z.object({ status: z.literal('ok') });
const readyzResponse = z.object({
  status: z.enum(['ok', 'unavailable', 'stopping']),
  checks: z.object({ database: checkState, file_store: checkState }).partial(),
});

class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** Runs `check` with a deadline; 'ok', 'failed' (it rejected) or 'timeout'. */
async function timed(check: (signal: AbortSignal) => Promise<unknown>, ms: number, onError: (err: unknown) => void): Promise<z.infer<typeof checkState>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CheckTimeout(ms));
    }, ms);
  });
  try {
    await Promise.race([check(controller.signal), deadline]);
    return 'ok';
  } catch (err) {
    onError(err);
    return err instanceof CheckTimeout ? 'timeout' : 'failed';
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(app: App, ctx: AppContext, opts: { timeoutMs?: number } = {}) {
  const timeoutMs = opts.timeoutMs ?? READY_TIMEOUT_MS;
  const probe = { rateLimit: false } as const;

  app.get('/livez', { config: probe, schema: { response: { 200: livezResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });

  app.get('/readyz', { config: probe, schema: { response: { 200: readyzResponse, 503: readyzResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Stopping: the orchestrator sends the next requests to another process.
    if (ctx.draining.aborted)
      return reply
        .status(503)
        .header('connection', 'close')
        .send({ status: 'stopping' as const, checks: {} });
    const logFailure = (check: string) => (err: unknown) => request.log.warn({ check, err: describeErrorSafely(err) }, 'readiness check failed');
    const [database, fileStore] = await Promise.all([
      timed(() => ctx.db.execute(sql`select 1`), timeoutMs, logFailure('database')),
      timed((signal) => ctx.blobs.ping(signal), timeoutMs, logFailure('file_store')),
    ]);
    const checks = { database, file_store: fileStore };
    const ready = database === 'ok' && fileStore === 'ok';
    return reply.status(ready ? 200 : 503).send({ status: ready ? ('ok' as const) : ('unavailable' as const), checks });
  });
}
