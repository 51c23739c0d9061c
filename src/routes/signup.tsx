import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { SignupForm } from '../features/auth/SignupForm';

export const Route = createFileRoute('/signup')({
  validateSearch: (search: Record<string, unknown>): { ref?: string } => (typeof search.ref === 'string' ? { ref: search.ref } : {}),
  component: function Signup() {
    const { ref } = Route.useSearch();
    return (
      <AuthLayout title={<Trans>Create your account</Trans>}>
        <SignupForm invitationRef={ref ?? ''} />
      </AuthLayout>
    );
  },
});
