/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell (the build's manifest) so the app opens offline after the first
 * visit, answers every page navigation with the cached index.html, and, on a Background Sync, sends recorded
 * parts still waiting in IndexedDB (offline/background-sync.ts). API calls are never cached here.
 * The precache holds the shell and every screen's code; heavy code used now and then (PDF export, error reporting, the
 * QR code) is under assets/on-demand/, fetched the first time it is needed and kept from then on (file names change
 * with content).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { ExpirationPlugin } from 'workbox-expiration';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { runBackgroundUpload, SYNC_TAG } from '../src/offline/background-sync';
import { SERVER_NAVIGATIONS } from '../src/offline/server-navigations';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };
type SyncEvent = ExtendableEvent & { tag: string };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first installation takes charge of the page that installed it: without this, the first session (sign-up, the
// first consultations) goes on fetching from the network, and a screen first opened offline would not open. An
// update still waits for the clinician's consent (register-service-worker.ts), and reloads when it takes charge.
clientsClaim();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SERVER_NAVIGATIONS }));

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/on-demand/'),
  // Older versions' chunks leave as new ones come: a few dozen files at most.
  new CacheFirst({ cacheName: 'on-demand', plugins: [new ExpirationPlugin({ maxEntries: 60, purgeOnQuotaError: true })] }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  // A rejection tells the browser to try again later, with its own backoff.
  if (sync.tag === SYNC_TAG) sync.waitUntil(runBackgroundUpload());
});
