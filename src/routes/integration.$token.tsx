import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { accountApi } from '../api/account';
import { AuthLayout } from '../features/auth/AuthLayout';
import { TokenExchange } from '../features/auth/TokenExchange';

/** Same screen as autologin; the token is a JWT signed by an integrated system. */
export const Route = createFileRoute('/integration/$token')({
  component: function Integration() {
    const { token } = Route.useParams();
    const exchange = useCallback(() => accountApi.signedTokenLogin(token), [token]);
    return (
      <AuthLayout title={<Trans>Automatic sign-in</Trans>}>
        <TokenExchange
          exchangeKey={`integration:${token}`}
          exchange={exchange}
          persistence="session"
          nextStep={<Trans>Open the app again from your record system.</Trans>}
        />
      </AuthLayout>
    );
  },
});
