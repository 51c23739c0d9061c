import cors from '@fastify/cors';
import helmet, { type HelmetOptions } from 'helmet';
import type { App } from './context.js';

/**
 * The web app loads only its own scripts (and index.html's inline ones, each allowed by its hash); it talks to
 * this server and, when configured, to Sentry.
 */
export async function registerSecurity(
  app: App,
  opts: { corsOrigins: string[]; sentryDsn?: string; integrationOrigins?: string[]; inlineScriptHashes?: string[] },
) {
  // A clinic's system configured in INTEGRATION_ORIGINS may frame this app or open it and talk to it by messages
  // (register_consultation): only then are framing by those origins and the opener link allowed.
  const integration = opts.integrationOrigins ?? [];
  const connectSrc = ["'self'"];
  if (opts.sentryDsn) connectSrc.push(new URL(opts.sentryDsn).origin);
  const headers = precomputeSecurityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(opts.inlineScriptHashes ?? [])],
        // React and Radix set style attributes (positions of popovers); no inline <style> blocks are served.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc,
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: integration.length ? ["'self'", ...integration] : ["'none'"],
      },
    },
    // The phone pairing and the microphone need no cross-origin isolation; keep the defaults that don't break them.
    crossOriginEmbedderPolicy: false,
    ...(integration.length ? { crossOriginOpenerPolicy: { policy: 'unsafe-none' as const }, xFrameOptions: false } : {}),
  });
  // The bookmarklet's window answers the page of another system that opened it: that link needs the opener kept.
  const pasteWindow = { ...headers, 'cross-origin-opener-policy': 'unsafe-none' };
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(request.url === '/paste' || request.url.startsWith('/paste?') ? pasteWindow : headers);
  });
  // API answers carry patient data: no browser, proxy or shared cache may keep a copy. The web app's own files
  // (static assets, the page shell) set their caching themselves and keep it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  await app.register(cors, {
    origin: opts.corsOrigins.length ? opts.corsOrigins : false,
    exposedHeaders: ['Authorization', 'x-client-deprecated', 'x-request-id'],
    credentials: false,
  });
}

/**
 * The security headers helmet would set, computed once: our policy has no per-request part (no nonces), and
 * running helmet on every request halved the throughput of the hot polling routes (bench/README.md).
 */
export function precomputeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  // helmet is Express-style middleware; it sets every header synchronously before calling next.
  helmet(options)({} as never, response as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}
