import { createRootRoute, Outlet, redirect } from '@tanstack/react-router';
import { appStore, authAtom } from '../app-state';
import { ConfirmWhenAsked } from '../ui/ConfirmWhenAsked';
import { SessionWatchers } from '../features/auth/SessionWatchers';
import { redirectFor } from '../features/auth/navigation-rules';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt';
import { NotFound } from '../ui/NotFound';

export const Route = createRootRoute({
  // Every navigation passes the rules of spec §2 (features/auth/navigation-rules.ts) before anything loads.
  beforeLoad: ({ location }) => {
    const auth = appStore.get(authAtom);
    const target = redirectFor(location.pathname, location.search as Record<string, unknown>, {
      authenticated: Boolean(auth?.token),
      user: auth?.user ?? null,
    });
    if (target) throw redirect({ href: target.keepSearch ? `${target.to}${location.searchStr}` : target.to, replace: true });
  },
  component: () => (
    <>
      <Outlet />
      <SessionWatchers />
      <ConfirmWhenAsked />
      <UpdatePrompt />
    </>
  ),
  notFoundComponent: NotFound,
});
