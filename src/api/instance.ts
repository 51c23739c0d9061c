import type { KyInstance } from 'ky';

let instance: KyInstance | undefined;

/** Installed once at start-up (main.tsx) with the app's token, locale and 401/deprecated handlers. */
export function installApi(client: KyInstance): void {
  instance = client;
}

export function api(): KyInstance {
  if (!instance) throw new Error('API client not installed');
  return instance;
}
