/**
 * Serves the built web app from WEB_DIST: hashed assets cached for a year, everything else revalidated,
 * and index.html for any other page a browser asks for (the SPA fallback). API paths never fall back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from './context.js';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The Content-Security-Policy sources that let the built index.html's inline scripts run (the route preloads,
 * vite-plugins/route-preloads.ts), and nothing else inline: one hash per script, as the build wrote it.
 */
export function inlineScriptHashes(webDist: string): string[] {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return [];
  const html = readFileSync(indexFile, 'utf8');
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? '')
    .filter((code) => code.trim() !== '')
    .map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
}

export async function registerWebApp(app: App, opts: { webDist: string; sentryDsn?: string }) {
  const indexFile = path.join(opts.webDist, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: opts.webDist,
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each text file: sent to browsers that accept them (a cold sign-in
      // screen is about a third of its size that way), with Vary: Accept-Encoding.
      preCompressed: true,
      // Source maps stay on the server (for reading error reports), never served: they would publish the code.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // Runtime settings the browser needs reach it as meta tags, so the shell needs no extra request to start.
  const indexHtml = hasBuild
    ? readFileSync(indexFile, 'utf8').replace(
        '</head>',
        `<meta name="sentry-dsn" content="${escapeAttr(opts.sentryDsn ?? '')}"></head>`,
      )
    : undefined;

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/v1/') &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && indexHtml) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return reply.status(404).send({ error: { code: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` } });
  });
}
