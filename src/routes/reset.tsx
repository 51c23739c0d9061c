import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { ResetRequestForm } from '../features/auth/ResetRequestForm';

export const Route = createFileRoute('/reset')({
  component: () => (
    <AuthLayout title={<Trans>Reset your password</Trans>}>
      <ResetRequestForm />
    </AuthLayout>
  ),
});
