import { CLIENT_VERSION } from '../../api/client';
import { routeNameOf } from '../auth/navigation-rules';
import { STORAGE_KEYS } from '../../offline/storage-keys';

const CONSULTATION_PAGES = new Set(['consultation', 'consultation_v2', 'dictaphone_consultation']);

/**
 * The server said this app is outdated: reload it to fetch the new one, at most once for this outdated version
 * in the whole browser. The mark is in localStorage, shared by every tab, so that several open tabs (or a reload
 * that came back with the same old files, from a cache) cannot loop; a later outdated version reloads once again.
 * Never under a consultation in progress.
 */
export function reloadOutdatedClient(pathname: string, reload: () => void, version: string = CLIENT_VERSION): void {
  if (CONSULTATION_PAGES.has(routeNameOf(pathname) ?? '')) return;
  try {
    if (localStorage.getItem(STORAGE_KEYS.deprecatedReloadDone) === version) return;
    localStorage.setItem(STORAGE_KEYS.deprecatedReloadDone, version);
  } catch {
    // No storage to remember it in: better an outdated screen than a reload loop.
    return;
  }
  reload();
}
