/**
 * A screen's code that could not be fetched: the browsers' messages for a failed dynamic import (Chromium, Firefox,
 * Safari), plus Vite's own when a chunk's stylesheet or preloaded dependency fails. Offline, or with the server down,
 * this is not a fault of the screen: it opens once the code can be fetched.
 */
const MESSAGES = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
  'Unable to preload CSS',
];

export function isChunkLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || MESSAGES.some((message) => error.message.startsWith(message));
}
