import './ui/fonts.css';
import './ui/theme.css';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { Provider } from 'jotai';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/client';
import { installApi } from './api/instance';
import { appStore, authAtom, clearAuth } from './app-state';
import { initErrorReporting, reportReactError } from './features/error-reporting/error-reporting';
import { activateLocale } from './features/i18n/activate';
import { resolveLocale } from './features/i18n/locale';
import { deviceId } from './api/device-id';
import { reloadOutdatedClient } from './features/pwa/outdated-client-reload';
import { registerServiceWorker } from './features/pwa/register-service-worker';
import { STORAGE_KEYS } from './offline/storage-keys';
import { RouteError } from './features/route-errors/RouteError';
import { routeTree } from './routeTree.gen';
import { NotFound } from './ui/NotFound';
import { loadWebFont } from './ui/web-font';

// Every route draws its failures in the interface's language, inside the signed-in frame when it is one of its
// screens (features/route-errors), never the router's own English message.
const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultErrorComponent: RouteError,
  defaultNotFoundComponent: NotFound,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

installApi(
  createApiClient({
    getToken: () => appStore.get(authAtom)?.token,
    getLocale: () => i18n.locale || 'pt',
    getDeviceId: deviceId,
    onUnauthorized: () => {
      clearAuth();
      void router.navigate({ to: '/login' });
    },
    onDeprecated: () => reloadOutdatedClient(window.location.pathname, () => window.location.reload()),
  }),
);

loadWebFont();
void initErrorReporting();
await activateLocale(resolveLocale(localStorage.getItem(STORAGE_KEYS.locale), navigator.languages));

const root = createRoot(document.getElementById('root')!, {
  onUncaughtError: reportReactError,
  onCaughtError: reportReactError,
  onRecoverableError: reportReactError,
});
// A transition: React draws the first screen in slices, between which the browser stays responsive (on a slow
// phone one long task otherwise blocked input for hundreds of milliseconds; the boot screen shows meanwhile).
startTransition(() =>
  root.render(
    <StrictMode>
      <Provider store={appStore}>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </Provider>
    </StrictMode>,
  ),
);

registerServiceWorker();
