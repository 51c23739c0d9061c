/// <reference types="vitest/config" />
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react-swc';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { inlineCss } from './vite-plugins/inline-css.ts';
import { routePreloads } from './vite-plugins/route-preloads.ts';

/**
 * Brotli and gzip copies of the built text files (.br, .gz beside each), which the server sends to browsers that
 * accept them (@fastify/static preCompressed): compressed once at build time, at the highest levels, never per
 * request. The service worker is left out: another plugin writes it at the same moment. So is index.html: the server
 * serves its own copy of it, with the runtime settings added (server/src/http/web-app.ts).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const worth = /\.(js|mjs|css|html|svg|json|webmanifest|txt|ttf)$/;
  return {
    name: 'precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
      for (const file of walk(outDir)) {
        const base = path.basename(file);
        if (!worth.test(file) || base.startsWith('sw.') || base.startsWith('workbox-') || file === path.join(outDir, 'index.html')) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Code fetched only when asked for: exporting a PDF (jspdf and what it pulls in), error reporting (Sentry, only
 * with a DSN) and the QR code (which needs the server anyway). Their chunks go to assets/on-demand/, which the
 * service worker does not precache: it keeps them once fetched. Each has its own offline path (the PDF export says it
 * needs a connection the first time). Every screen's code is precached, however rarely opened: a screen opened for
 * the first time offline, or with the server down, must open (together they weigh about 25 KB gzipped).
 */
const ON_DEMAND =
  /node_modules\/(jspdf|fast-png|fflate|iobuffer|html2canvas|canvg|core-js|svg-pathdata|rgbcolor|dompurify|stackblur-canvas|raf|performance-now|@babel\/runtime|@sentry|@sentry-internal|web-vitals|qrcode|dijkstrajs|pngjs)\/|\/contract\/(document-pdf|pdf-|fonts\/)|\/src\/features\/documents\/export-pdf/;
const onDemandChunk = (moduleIds: string[]) => moduleIds.length > 0 && moduleIds.every((id) => ON_DEMAND.test(id));

export default defineConfig({
  plugins: [
    // The router plugin must come before react (it generates src/routeTree.gen.ts and splits route code).
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react({ plugins: [['@lingui/swc-plugin', {}]] }),
    lingui(),
    routePreloads(),
    inlineCss(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: {
        name: 'Consultation Notes',
        short_name: 'Notes',
        description: 'Records consultations and writes clinical notes and documents.',
        lang: 'pt',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f6f8fa',
        theme_color: '#0f5c6e',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // The shell and every screen: the app opens, records and shows any screen offline. On-demand chunks are cached
      // when first used (sw/sw.ts).
      injectManifest: { globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest,woff2}'], globIgnores: ['assets/on-demand/**'] },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  // 'hidden': maps are written for reading error reports, but the bundles do not point to them and the server never serves them.
  build: {
    target: 'es2022',
    sourcemap: 'hidden',
    // Everything the first screen needs statically, in one chunk beside the entry: on a slow phone connection 45
    // small modulepreloads cost more round trips than bytes. Screens opened later stay split by route.
    rolldownOptions: {
      output: {
        chunkFileNames: (chunk) => (onDemandChunk(chunk.moduleIds) ? 'assets/on-demand/[name]-[hash].js' : 'assets/[name]-[hash].js'),
        // The PDF's font files (700 KB each) are fetched only by an export, and kept by the service worker once fetched.
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.ttf')) ? 'assets/on-demand/[name]-[hash][extname]' : 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            // Small modules the signed-in screens share, one request instead of a dozen; the sign-in screen needs
            // some of them, and none of the widgets below.
            {
              name: 'common',
              minShareCount: 2,
              priority: 1,
              test: /\/src\/(ui\/(?!Dialog|AppFrame|ConfirmDialogHost)|api\/)/,
              includeDependenciesRecursively: false,
            },
            { name: 'widgets', minShareCount: 2, priority: 1, test: /lucide-react|@radix-ui/ },
            // What the signed-in frame, home and the consultation screen share (the device's database, phone pairing,
            // messages…): one request instead of ten, on a phone connection where each costs a round trip.
            {
              name: 'signed-in',
              minShareCount: 2,
              priority: 0,
              // Not what these import: the sign-in screens share some of it (the messages of API errors) and must not load the rest.
              includeDependenciesRecursively: false,
              test: /node_modules\/dexie\/|\/src\/(offline\/(db|session-ops|chunk-queue)\.|features\/(pairing\/|recording\/recording-messages\.|home\/useConsultationTypes\.|trials\/ResearchSpacesList\.|consultation\/(useConsultationSession|session-load-problem)\.))/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/v1': 'http://localhost:8080', '/healthz': 'http://localhost:8080' } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'vite-plugins/**/*.test.ts'],
          setupFiles: ['fake-indexeddb/auto', './src/test-setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One PGlite or PostgreSQL database per file; files in parallel would fight over CPU for argon2.
          fileParallelism: false,
        },
      },
    ],
  },
});
