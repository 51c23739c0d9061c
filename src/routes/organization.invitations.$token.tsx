import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { InvitationAnswer } from '../features/organization/InvitationAnswer';

export const Route = createFileRoute('/organization/invitations/$token')({
  component: function Invitation() {
    const { token } = Route.useParams();
    return (
      <AuthLayout title={<Trans>Organization invitation</Trans>}>
        <InvitationAnswer token={token} />
      </AuthLayout>
    );
  },
});
