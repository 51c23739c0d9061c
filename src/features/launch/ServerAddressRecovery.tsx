import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Alert } from '../../ui/Alert';

const TRIED = 'server_address_recovery';

type Worker = Pick<ServiceWorkerContainer, 'getRegistration'> | undefined;

/**
 * The record system's launch address (/launch/{organization}) belongs to the server: the app's own service
 * worker leaves it to the network. A service worker installed by an older version of the app answered it with
 * the cached app instead, and the launch ended here. That worker is removed (the next visit installs the current
 * one; recorded parts stay in this browser's storage and are sent by the app as ever) and the address asked for
 * again, now of the server. Only once per address: if it still ends here, the clinician is told what to do.
 */
export function ServerAddressRecovery({
  worker = navigator.serviceWorker as Worker,
  reload = () => window.location.reload(),
}: {
  worker?: Worker;
  reload?: () => void;
}) {
  const [stuck] = useState(() => sessionStorage.getItem(TRIED) === window.location.href);
  useEffect(() => {
    if (stuck) return;
    sessionStorage.setItem(TRIED, window.location.href);
    let current = true;
    void (async () => {
      const registration = await worker?.getRegistration().catch(() => undefined);
      await registration?.unregister().catch(() => false);
      if (current) reload();
    })();
    return () => {
      current = false;
    };
  }, [stuck, worker, reload]);
  return stuck ? (
    <Alert tone="error">
      <Trans>This browser could not reach the record system's sign-in. Close this window and open the consultation again from the record system.</Trans>
    </Alert>
  ) : (
    <p role="status">
      <Trans>Loading…</Trans>
    </p>
  );
}
