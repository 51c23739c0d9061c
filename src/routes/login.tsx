import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { LoginForm } from '../features/auth/LoginForm';
import { SIGNUP_REF } from '../features/auth/navigation-rules';

/** `ref`: the invitation page to return to after signing in (only that form, so the login is no open redirect). */
export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): { ref?: string } =>
    typeof search.ref === 'string' && SIGNUP_REF.test(search.ref) ? { ref: search.ref } : {},
  component: function Login() {
    const { ref } = Route.useSearch();
    return (
      <AuthLayout title={<Trans>Sign in</Trans>}>
        <LoginForm invitationToken={ref?.split('/').pop()} />
      </AuthLayout>
    );
  },
});
