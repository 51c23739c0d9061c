import { useState } from 'react';
import { appStore, authAtom } from '../../app-state';
import { STORAGE_KEYS } from '../../offline/storage-keys';

/**
 * A requested change being typed is kept in this tab's sessionStorage, per user, consultation and document, so
 * that it is still there when the clinician signs in again after the session expired (the sign-in screen unmounts
 * everything). Sending it removes it; signing out removes every draft; closing the tab ends them anyway.
 */
const storageKey = (sessionId: string, docKey: string) =>
  `${STORAGE_KEYS.changeDraftPrefix}${appStore.get(authAtom)?.user?.id ?? 'anonymous'}.${sessionId}.${docKey}`;

function read(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    // Storage refused (private mode, quota): the draft then lives only on screen.
    return '';
  }
}

function write(key: string, text: string): void {
  try {
    if (text) sessionStorage.setItem(key, text);
    else sessionStorage.removeItem(key);
  } catch {
    // As above: losing the copy must not stop the typing.
  }
}

/** The draft of a text command for one document, read at first render and written as it changes. */
export function useChangeDraft(sessionId: string, docKey: string): [string, (text: string) => void] {
  const key = storageKey(sessionId, docKey);
  const [text, setText] = useState(() => read(key));
  return [
    text,
    (next: string) => {
      setText(next);
      write(key, next);
    },
  ];
}

/** At sign-out: no one else signing in on this tab finds a draft of the previous clinician. */
export function clearChangeDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(STORAGE_KEYS.changeDraftPrefix)) sessionStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
