/**
 * Every name this app uses in the browser's storage, in one place.
 *
 * localStorage  `token`, `user`   the session when "remember me" was ticked; removed at logout or expiry.
 *               `locale`          the chosen interface language; kept until changed.
 *               `v2_home`         mirror of the account setting, so the first paint picks the right home.
 * sessionStorage `token`, `user`  the session without "remember me"; gone when the tab closes.
 *               `deprecated_reload_done`  the outdated-client reload happens once per browser session.
 */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  locale: 'locale',
  v2Home: 'v2_home',
  deprecatedReloadDone: 'deprecated_reload_done',
} as const;
