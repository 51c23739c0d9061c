import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { accountApi } from '../../api/account';
import { organizationsApi, type InvitationView } from '../../api/organizations';
import { authAtom, updateUser } from '../../app-state';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeFailure } from '../i18n/api-error-messages';

const answerFailed = msg`An error occurred while accepting or rejecting the invitation`;

/** Spec §2 /organization/invitations/{token}: accept or reject when signed in; a newcomer creates an account with it. */
export function InvitationAnswer({ token }: { token: string }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const signedIn = Boolean(useAtomValue(authAtom));
  const [invitation, setInvitation] = useState<InvitationView>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<'accepted' | 'rejected'>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    organizationsApi.invitation(token).then((r) => setInvitation(r.invitation), (err) => setError(describeFailure(i18n, err, answerFailed)));
  }, [token, i18n]);

  async function answer(kind: 'accept' | 'reject') {
    setBusy(true);
    setError(undefined);
    try {
      if (kind === 'accept') {
        await organizationsApi.accept(token);
        updateUser((await accountApi.getAccount()).d_user);
        setDone('accepted');
      } else {
        await organizationsApi.reject(token);
        setDone('rejected');
      }
    } catch (err) {
      setError(describeFailure(i18n, err, answerFailed));
    } finally {
      setBusy(false);
    }
  }

  if (!invitation) return error ? <Alert tone="error">{error}</Alert> : <p role="status"><Trans>Loading…</Trans></p>;
  const organization = invitation.organization_name;
  if (done === 'accepted') {
    return (
      <>
        <Alert tone="success">
          <Trans>You joined {organization}.</Trans>
        </Alert>
        <Button block onClick={() => void navigate({ to: '/settings/{-$section}', params: { section: 'organisation' } })}>
          <Trans>See your organisation</Trans>
        </Button>
      </>
    );
  }
  if (done === 'rejected') {
    return (
      <Alert tone="info">
        <Trans>You declined the invitation to {organization}.</Trans>
      </Alert>
    );
  }
  if (invitation.status !== 'pending') {
    return (
      <Alert tone="warning">
        {invitation.status === 'expired'
          ? t`This invitation has expired. Ask your organization's administrator for a new one.`
          : t`You have already responded to this invitation`}
      </Alert>
    );
  }
  return (
    <>
      <p>
        <Trans>
          You are invited to join <strong>{organization}</strong> with the address {invitation.email}. Members share the organisation's credits.
        </Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {signedIn ? (
        <div className="form-actions">
          <Button onClick={() => void answer('accept')} busy={busy}>
            <Trans>Accept</Trans>
          </Button>
          <Button variant="secondary" onClick={() => void answer('reject')} disabled={busy}>
            <Trans>Decline</Trans>
          </Button>
        </div>
      ) : (
        <>
          <Link to="/signup" search={{ ref: `/organization/invitations/${token}` }} className="button" data-variant="primary" data-block="true">
            <Trans>Create account</Trans>
          </Link>
          <p className="muted">
            <Trans>Already have an account? Sign in, then open the link in the e-mail again.</Trans>
          </p>
          <div className="form-actions">
            <Link to="/login" className="button" data-variant="secondary">
              <Trans>Sign in</Trans>
            </Link>
            <Button variant="ghost" onClick={() => void answer('reject')} disabled={busy}>
              <Trans>Decline</Trans>
            </Button>
          </div>
        </>
      )}
    </>
  );
}
