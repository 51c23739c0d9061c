import { Workbox } from 'workbox-window';
import { appStore, updateAvailableAtom } from '../../app-state';

/**
 * Registers the service worker (production builds only). A new version waits until the user accepts the
 * "update available" prompt, so nothing reloads under a clinician in the middle of their work.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // The built sw.js has no imports, so it is registered as a classic worker.
  const wb = new Workbox('/sw.js', { type: 'classic' });
  wb.addEventListener('waiting', () => {
    appStore.set(updateAvailableAtom, () => () => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  void wb.register();
}
