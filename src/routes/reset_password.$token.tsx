import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { ResetPasswordForm } from '../features/auth/ResetPasswordForm';

export const Route = createFileRoute('/reset_password/$token')({
  component: function ResetPassword() {
    const { token } = Route.useParams();
    return (
      <AuthLayout title={<Trans>Choose a new password</Trans>}>
        <ResetPasswordForm token={token} />
      </AuthLayout>
    );
  },
});
