import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { App } from './context.js';

/** The web app loads only its own scripts; it talks to this server and, when configured, to Sentry. */
export async function registerSecurity(app: App, opts: { corsOrigins: string[]; sentryDsn?: string }) {
  const connectSrc = ["'self'"];
  if (opts.sentryDsn) connectSrc.push(new URL(opts.sentryDsn).origin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
        frameAncestors: ["'none'"],
      },
    },
    // The phone pairing and the microphone need no cross-origin isolation; keep the defaults that don't break them.
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cors, {
    origin: opts.corsOrigins.length ? opts.corsOrigins : false,
    exposedHeaders: ['Authorization', 'x-client-deprecated'],
    credentials: false,
  });
}
