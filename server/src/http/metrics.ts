/**
 * Prometheus metrics at `GET /metrics` (text exposition format), for the addresses in METRICS_ALLOW only.
 *
 * What is measured:
 * - `http_requests_total` and `http_request_duration_seconds` by method, route pattern (`/v1/consultation_sessions/:id`,
 *   never the URL as sent: no ids or tokens in a label; `unmatched` for addresses no route has) and status class
 *   (`2xx`…`5xx`); server errors are the `5xx` series;
 * - `queue_jobs` by queue (transcription, ocr, document, screening) and state, counted in the database when scraped:
 *   the same figures from every process (the queues are shared), so sum over processes with care;
 * - `transcription_lag_seconds`: from a part's upload to its transcript being stored (the process that
 *   transcribed it observes it);
 * - `document_writing_seconds` by outcome: from the transcript being ready to the document being saved (the
 *   process that wrote it observes it);
 * - `job_failures_total` by queue and outcome (`retry`, `failed`, `unavailable`);
 * - Node's process metrics (CPU, memory, event loop lag, handles, GC), prefixed `process_` and `nodejs_`.
 *
 * Each process serves its own registry: in a split deployment (ROLE=api and ROLE=worker, see config.ts) scrape every
 * process. A worker has an HTTP server for its probes (/healthz, /livez, /readyz) and answers /metrics there too:
 * transcription lag and failures come from the workers, request rates and document times from the API processes.
 *
 * Who may read: the client's address is the TCP peer's (never a forwarding header, whatever TRUST_PROXY says) and
 * must be in METRICS_ALLOW (IPs and CIDRs; loopback by default); a request that carries a forwarding header
 * (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`) came through a proxy, which may have been reached from anywhere,
 * and is refused too: Prometheus scrapes the process directly. Refusals are the ordinary 404, so the address
 * reveals nothing.
 */
import { type BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import { z } from 'zod';
import { embeddedIpv4 } from '../../../contract/ip-address.js';
import { httpDuration, httpRequests, processRegistry, queueGauge } from '../observability/metrics-registry.js';
import type { App, AppContext } from './context.js';
import { describeErrorSafely } from '../errors/safe-errors.js';
import { parseAllowList } from './ip-allow-list.js';
import { errorResponses } from './responses.js';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Whether this request may read the metrics (see the top of the file). */
export function mayReadMetrics(request: FastifyRequest, allowed: BlockList): boolean {
  if (FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined)) return false;
  const peer = request.raw.socket?.remoteAddress;
  if (!peer) return false;
  // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d: matched against the IPv4 entries too.
  const v4 = isIP(peer) === 6 ? embeddedIpv4(peer) : undefined;
  return allowed.check(peer, isIP(peer) === 4 ? 'ipv4' : 'ipv6') || (v4 !== undefined && allowed.check(v4, 'ipv4'));
}

/** Counts and times every request, and serves /metrics to the allowed addresses. */
export function registerMetrics(app: App, ctx: AppContext): void {
  const allowed = parseAllowList(ctx.config.metricsAllow);
  const queues = queueGauge(ctx.db, (err) => app.log.warn({ err: describeErrorSafely(err) }, 'metrics: the queues could not be counted'));

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get(
    '/metrics',
    { config: { rateLimit: false }, schema: { response: { 200: z.string().describe('Prometheus text exposition format'), ...errorResponses(404) } } },
    async (request, reply) => {
      if (!mayReadMetrics(request, allowed)) {
        // Answered as any address without a route is.
        return reply.callNotFound();
      }
      const registry = Registry.merge([processRegistry, queues]);
      const text = await registry.metrics();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    },
  );
}
