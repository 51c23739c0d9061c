import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { ServerAddressRecovery } from '../features/launch/ServerAddressRecovery';

/** Reached only through a service worker of an older version of the app (see ServerAddressRecovery). */
export const Route = createFileRoute('/launch/$')({
  component: function LaunchThroughServer() {
    return (
      <AuthLayout title={<Trans>Opening the consultation from the record system</Trans>}>
        <ServerAddressRecovery />
      </AuthLayout>
    );
  },
});
