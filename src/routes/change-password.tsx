import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { ChangePasswordForm } from '../features/auth/ChangePasswordForm';

export const Route = createFileRoute('/change-password')({
  component: () => (
    <AuthLayout title={<Trans>Change password</Trans>}>
      <ChangePasswordForm />
    </AuthLayout>
  ),
});
