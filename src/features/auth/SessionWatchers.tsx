import { useLingui } from '@lingui/react/macro';
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { accountApi } from '../../api/account';
import { appStore, authAtom, clearAuth, sessionExpiredAtom, updateUser } from '../../app-state';
import { confirm } from '../../ui/confirm';
import { watchTokenExpiry } from './token-expiry';

/**
 * Runs for the whole life of the app: re-applies the navigation rules whenever the session changes,
 * refreshes the profile once at start, and shows the "session expired" dialog when the token's exp passes.
 */
export function SessionWatchers() {
  const router = useRouter();
  const { t } = useLingui();

  useEffect(() => appStore.sub(authAtom, () => void router.invalidate()), [router]);

  // Recorded parts left from before (a reload, a crash, a lost connection) go out as soon as someone is signed in.
  useEffect(() => {
    // Loaded on demand: the uploader and IndexedDB layer stay out of the first screen's JavaScript.
    const startIfSignedIn = () => {
      if (appStore.get(authAtom)?.user?.id) void import('../recording/upload-service').then((m) => m.startUploads());
    };
    startIfSignedIn();
    return appStore.sub(authAtom, startIfSignedIn);
  }, []);

  useEffect(() => {
    if (!appStore.get(authAtom)) return;
    accountApi.getAccount().then(
      ({ d_user }) => updateUser(d_user),
      // Spec §8: a profile load failure is only logged.
      (err: unknown) => console.warn('Profile load failed', err),
    );
  }, []);

  useEffect(
    () =>
      watchTokenExpiry(
        () => appStore.get(authAtom)?.token,
        async () => {
          appStore.set(sessionExpiredAtom, true);
          await confirm({
            type: 'info',
            title: t`Your session has expired`,
            message: t`Sign in again to keep using the app.`,
          });
          clearAuth();
          await router.navigate({ to: '/login' });
        },
      ),
    [router, t],
  );
  return null;
}
