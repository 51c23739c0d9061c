import { Trans } from '@lingui/react/macro';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { authAtom } from '../app-state';
import { AuthLayout } from '../features/auth/AuthLayout';

/** Answering an invitation while signed in arrives with organizations; new users already accept through signup. */
export const Route = createFileRoute('/organization/invitations/$token')({
  component: function Invitation() {
    const { token } = Route.useParams();
    const signedIn = Boolean(useAtomValue(authAtom));
    return (
      <AuthLayout title={<Trans>Organization invitation</Trans>}>
        {signedIn ? (
          <p className="muted">
            <span className="badge">
              <Trans>Coming soon</Trans>
            </span>{' '}
            <Trans>Answering an invitation with an existing account is not available yet.</Trans>
          </p>
        ) : (
          <>
            <p>
              <Trans>Create your account to join the organization.</Trans>
            </p>
            <Link to="/signup" search={{ ref: `/organization/invitations/${token}` }} className="button" data-variant="primary" data-block="true">
              <Trans>Create account</Trans>
            </Link>
          </>
        )}
      </AuthLayout>
    );
  },
});
