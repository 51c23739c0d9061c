import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { accountApi } from '../api/account';
import { AuthLayout } from '../features/auth/AuthLayout';
import { TokenExchange } from '../features/auth/TokenExchange';

/**
 * The end of a launch from the record system: /launch/callback left a two-minute sign-in in a cookie of this
 * browser, spent here once; signed in for this browser session only, as the record system's window may be shared.
 */
export const Route = createFileRoute('/launched')({
  component: function Launched() {
    const exchange = useCallback(() => accountApi.launchSession(), []);
    return (
      <AuthLayout title={<Trans>Opening the consultation from the record system</Trans>}>
        <TokenExchange
          exchangeKey={`launch:${performance.timeOrigin}`}
          exchange={exchange}
          persistence="session"
          nextStep={<Trans>Open the consultation again from your record system.</Trans>}
        />
      </AuthLayout>
    );
  },
});
