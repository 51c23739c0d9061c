/**
 * The app's jotai atoms and its one store (imported nowhere else from jotai but components' hooks).
 *
 * The session (token + user) lives in localStorage when "remember me" was ticked, else in sessionStorage
 * (see offline/storage-keys.ts). Storage is written first and the atom set after, so a reload in between
 * never shows a signed-in screen without a stored session.
 */
import { atom, createStore } from 'jotai';
import type { DUser } from '../contract/account';
import { STORAGE_KEYS } from './offline/storage-keys';

export type Persistence = 'local' | 'session';
export type AuthState = { token: string; user: DUser | null; persistence: Persistence };

export const appStore = createStore();

function storageFor(p: Persistence): Storage {
  return p === 'local' ? localStorage : sessionStorage;
}

function readStoredAuth(): AuthState | null {
  for (const persistence of ['local', 'session'] as const) {
    try {
      const s = storageFor(persistence);
      const token = s.getItem(STORAGE_KEYS.token);
      if (!token) continue;
      const raw = s.getItem(STORAGE_KEYS.user);
      return { token, user: raw ? (JSON.parse(raw) as DUser) : null, persistence };
    } catch {
      // Storage blocked or corrupt: treat as signed out.
    }
  }
  return null;
}

export const authAtom = atom<AuthState | null>(readStoredAuth());

/** Stores a new session, or replaces the user of the current one (profile changes). */
export function saveAuth(next: AuthState): void {
  const s = storageFor(next.persistence);
  s.setItem(STORAGE_KEYS.token, next.token);
  if (next.user) s.setItem(STORAGE_KEYS.user, JSON.stringify(next.user));
  if (next.user) localStorage.setItem(STORAGE_KEYS.v2Home, String(next.user.v2_home));
  // The other storage must not keep an older session that would win at the next start.
  const other = storageFor(next.persistence === 'local' ? 'session' : 'local');
  other.removeItem(STORAGE_KEYS.token);
  other.removeItem(STORAGE_KEYS.user);
  appStore.set(authAtom, next);
  syncUploadCredentials(next);
}

/** The service worker may send waiting audio in the background, but only for a remembered session. */
function syncUploadCredentials(auth: AuthState | null): void {
  const session = auth?.user ? { token: auth.token, userId: auth.user.id, remembered: auth.persistence === 'local' } : null;
  void import('./offline/background-sync').then(({ rememberUploadCredentials }) => rememberUploadCredentials(session)).catch(() => undefined);
}

export function updateUser(user: DUser): void {
  const current = appStore.get(authAtom);
  if (current) saveAuth({ ...current, user });
}

/** Logout: both storages cleared, then every piece of signed-in state reset. */
export function clearAuth(): void {
  for (const s of [localStorage, sessionStorage]) {
    s.removeItem(STORAGE_KEYS.token);
    s.removeItem(STORAGE_KEYS.user);
  }
  appStore.set(authAtom, null);
  appStore.set(sessionExpiredAtom, false);
  // The cached consultations go; recorded parts not yet sent stay (they belong to their user and leave only to the server).
  void import('./offline/db').then(({ appDb }) => appDb().sessions.clear());
  syncUploadCredentials(null);
}

/** True while the "your session expired" dialog is shown. */
export const sessionExpiredAtom = atom(false);

export type ConfirmType = 'info' | 'confirm' | 'warning';
export type ConfirmRequest = {
  type: ConfirmType;
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  resolve: (confirmed: boolean) => void;
};
/** The general confirmation dialog's current question (spec §2), answered through `resolve`. */
export const confirmAtom = atom<ConfirmRequest | null>(null);

/** Set when a new service worker is waiting; the prompt offers to reload into it. */
export const updateAvailableAtom = atom<null | (() => void)>(null);
