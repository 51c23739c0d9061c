/**
 * Serves the built web app from WEB_DIST: hashed assets cached for a year, everything else revalidated,
 * and index.html for any other page a browser asks for (the SPA fallback). API paths never fall back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './context.js';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page every app address is answered with, read once at start and kept: the fallback of every page and
 * /index.html itself (what the service worker keeps, so that pages it answers carry the same runtime settings),
 * with the Content-Security-Policy sources that let its inline scripts run (the route preloads,
 * vite-plugins/route-preloads.ts) computed from that same copy: one hash per script, and nothing else inline.
 */
export type WebShell = { html: string; br: Buffer; gzip: Buffer; scriptHashes: string[] };

export function loadWebShell(webDist: string, sentryDsn?: string): WebShell | undefined {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  // Runtime settings the browser needs reach it as meta tags, so the shell needs no extra request to start.
  const html = readFileSync(indexFile, 'utf8').replace('</head>', `<meta name="sentry-dsn" content="${escapeAttr(sentryDsn ?? '')}"></head>`);
  const scriptHashes = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? '')
    .filter((code) => code.trim() !== '')
    .map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
  const data = Buffer.from(html);
  return {
    html,
    br: brotliCompressSync(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(data, { level: 9 }),
    scriptHashes,
  };
}

function sendShell(shell: WebShell, request: FastifyRequest, reply: FastifyReply) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
  if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(shell.br);
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(shell.gzip);
  return reply.send(shell.html);
}

export async function registerWebApp(app: App, opts: { webDist: string; shell: WebShell | undefined }) {
  const { shell } = opts;
  if (shell) {
    await app.register(fastifyStatic, {
      root: opts.webDist,
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each text file: sent to browsers that accept them (a cold sign-in
      // screen is about a third of its size that way), with Vary: Accept-Encoding.
      preCompressed: true,
      // Source maps stay on the server (for reading error reports), never served: they would publish the code.
      // index.html comes from the kept copy (below), never from the disk.
      allowedPath: (pathName) => !pathName.endsWith('.map') && pathName !== '/index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    const pathname = request.url.split('?')[0];
    // The root is the app's front door: answered with the page whatever the client accepts (curl, a load balancer's
    // check, a browser that sends */*), like /index.html. Other addresses need a browser's Accept: text/html.
    const wantsPage =
      isRead && !request.url.startsWith('/v1/') && (pathname === '/' || pathname === '/index.html' || (request.headers.accept ?? '').includes('text/html'));
    if (wantsPage && shell) return sendShell(shell, request, reply);
    return reply.status(404).send({ error: { code: 'not_found', message: `No route for ${request.method} ${pathname}` } });
  });
}
