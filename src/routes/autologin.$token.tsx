import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { accountApi } from '../api/account';
import { AuthLayout } from '../features/auth/AuthLayout';
import { TokenExchange } from '../features/auth/TokenExchange';

export const Route = createFileRoute('/autologin/$token')({
  component: function AutoLogin() {
    const { token } = Route.useParams();
    const exchange = useCallback(() => accountApi.autoLogin(token), [token]);
    return (
      <AuthLayout title={<Trans>Automatic sign-in</Trans>}>
        {/* A paired phone is the clinician's own device: keep it signed in. */}
        <TokenExchange
          exchangeKey={`auto:${token}`}
          exchange={exchange}
          persistence="local"
          nextStep={<Trans>Show the QR code again on the computer and scan it with this phone.</Trans>}
        />
      </AuthLayout>
    );
  },
});
