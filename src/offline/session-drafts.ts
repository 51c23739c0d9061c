import { useState } from 'react';
import { appStore, authAtom } from '../app-state';
import { STORAGE_KEYS } from './storage-keys';

/**
 * Text being typed (a change asked of a document, a custom document request) is kept in this tab's
 * sessionStorage, per user and per thing typed about, so that it is still there when the clinician signs in again
 * after the session expired (the sign-in screen unmounts everything). Sending it removes it; signing out removes
 * every draft; closing the tab ends them anyway.
 */
const storageKey = (scope: string) => `${STORAGE_KEYS.draftPrefix}${appStore.get(authAtom)?.user?.id ?? 'anonymous'}.${scope}`;

function read<T>(key: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  } catch {
    // Storage refused (private mode) or a draft from another version: the form starts as it would without it.
    return undefined;
  }
}

function write(key: string, value: unknown): void {
  try {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // As above: losing the copy must not stop the typing.
  }
}

/**
 * A draft read at first render and written as it changes; `forget` removes the stored copy (once sent or saved)
 * and leaves what is on screen.
 */
export function useSessionDraft<T>(scope: string, initial: () => T): [T, (next: T | ((previous: T) => T)) => void, () => void] {
  const key = storageKey(scope);
  const [value, setValue] = useState<T>(() => read<T>(key) ?? initial());
  const set = (next: T | ((previous: T) => T)) =>
    setValue((previous) => {
      const updated = typeof next === 'function' ? (next as (previous: T) => T)(previous) : next;
      write(key, updated);
      return updated;
    });
  return [value, set, () => write(key, undefined)];
}

/** At sign-out: no one else signing in on this tab finds a draft of the previous clinician. */
export function clearSessionDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(STORAGE_KEYS.draftPrefix)) sessionStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
