import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { accountApi } from '../api/account';
import { AuthLayout } from '../features/auth/AuthLayout';
import { TokenExchange } from '../features/auth/TokenExchange';

/**
 * The end of a launch from the record system (/launch/callback hands over a two-minute token): signed in for
 * this browser session only, as the record system's own window may be shared.
 */
export const Route = createFileRoute('/launched/$token')({
  component: function Launched() {
    const { token } = Route.useParams();
    const exchange = useCallback(() => accountApi.autoLogin(token), [token]);
    return (
      <AuthLayout title={<Trans>Opening the consultation from the record system</Trans>}>
        <TokenExchange exchangeKey={`launch:${token}`} exchange={exchange} persistence="session" />
      </AuthLayout>
    );
  },
});
