import type { DUser } from '../../../contract/account';
import { clearAuth, saveAuth, type Persistence } from '../../app-state';
import { accountApi } from '../../api/account';
import { clearSessionDrafts } from '../../offline/session-drafts';
import { activateLocale } from '../i18n/activate';
import { isSupportedLocale } from '../i18n/locale';

/** A new session: stored first (see app-state.ts), then the interface follows the account's language. */
export async function beginSession(token: string, user: DUser, persistence: Persistence): Promise<void> {
  saveAuth({ token, user, persistence });
  if (isSupportedLocale(user.language)) await activateLocale(user.language, { remember: true });
}

/** Revokes the token on the server when reachable; the local session ends either way. */
export async function endSession(): Promise<void> {
  try {
    await accountApi.logout();
  } catch {
    // Offline or already revoked: nothing more to do server-side.
  }
  clearSessionDrafts();
  clearAuth();
}
