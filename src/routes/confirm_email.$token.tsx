import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { accountApi } from '../api/account';
import { AuthLayout } from '../features/auth/AuthLayout';
import { TokenExchange } from '../features/auth/TokenExchange';

export const Route = createFileRoute('/confirm_email/$token')({
  component: function ConfirmEmail() {
    const { token } = Route.useParams();
    const exchange = useCallback(() => accountApi.confirmEmail(token), [token]);
    return (
      <AuthLayout title={<Trans>Confirm e-mail</Trans>}>
        <TokenExchange
          exchangeKey={`confirm:${token}`}
          exchange={exchange}
          persistence="session"
          nextStep={<Trans>Sign in with your e-mail address and password: if the address still needs confirming, a new link is mailed to it.</Trans>}
        />
      </AuthLayout>
    );
  },
});
