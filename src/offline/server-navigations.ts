/**
 * Page addresses the server answers itself, which the service worker must never answer with the cached app:
 * the API, health and internal routes, the bookmarklet's paste window (its headers keep the link to its opener)
 * and the record system's launch (/launch/{organization} and /launch/callback redirect to the record system
 * and back). The app's own /launch_link, /launch_failed and /launched pages are not among them.
 * Workbox tests these against the path and the query string.
 */
export const SERVER_NAVIGATIONS: RegExp[] = [/^\/v1\//, /^\/healthz/, /^\/internal\//, /^\/paste/, /^\/launch(?:[/?#]|$)/];

export function answeredByServer(pathAndQuery: string): boolean {
  return SERVER_NAVIGATIONS.some((pattern) => pattern.test(pathAndQuery));
}
