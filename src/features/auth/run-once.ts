/**
 * Single-use links (autologin, confirmation) must be spent once even when React mounts a screen twice
 * (StrictMode, a fast re-render): the first call's promise is shared by any later call with the same key.
 */
const pending = new Map<string, Promise<unknown>>();

export function runOnce<T>(key: string, run: () => Promise<T>): Promise<T> {
  let p = pending.get(key) as Promise<T> | undefined;
  if (!p) {
    p = run();
    pending.set(key, p);
  }
  return p;
}
