import { createRootRoute, Outlet, redirect } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { appStore, authAtom, confirmAtom } from '../app-state';
import { SessionWatchers } from '../features/auth/SessionWatchers';
import { redirectFor } from '../features/auth/navigation-rules';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt';
import { NotFound } from '../ui/NotFound';

// The dialog's code (Radix's focus trap and scroll lock) arrives when a first question is asked, not with the first
// screen; it is precached like the rest of the shell, so it opens offline too.
const ConfirmDialogHost = lazy(() => import('../ui/ConfirmDialogHost').then((m) => ({ default: m.ConfirmDialogHost })));

function ConfirmWhenAsked() {
  const asked = useAtomValue(confirmAtom);
  return asked ? (
    <Suspense fallback={null}>
      <ConfirmDialogHost />
    </Suspense>
  ) : null;
}

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
