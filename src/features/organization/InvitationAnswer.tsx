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
import { endSession } from '../auth/session-actions';
import { describeFailure, isBadLink } from '../i18n/api-error-messages';

const answerFailed = msg`An error occurred while accepting or rejecting the invitation`;

/**
 * Spec §2 /organization/invitations/{token}: the invited clinician accepts or declines once signed in with the
 * invited address (the server refuses anyone else); a newcomer creates an account with it.
 */
export function InvitationAnswer({ token }: { token: string }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const auth = useAtomValue(authAtom);
  const signedIn = Boolean(auth);
  const signedInEmail = auth?.user?.email;
  const [invitation, setInvitation] = useState<InvitationView>();
  const [error, setError] = useState<string>();
  const [badLink, setBadLink] = useState(false);
  const [done, setDone] = useState<'accepted' | 'rejected'>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    organizationsApi.invitation(token).then(
      (r) => setInvitation(r.invitation),
      (err) => {
        if (isBadLink(err)) setBadLink(true);
        else setError(describeFailure(i18n, err, answerFailed));
      },
    );
  }, [token, i18n]);

  const invitationRef = `/organization/invitations/${token}`;

  /** Signed in as someone else: end that session and come back here through the sign-in page. */
  async function switchAccount() {
    setBusy(true);
    await endSession();
    await navigate({ to: '/login', search: { ref: invitationRef } });
  }

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

  if (!invitation && badLink)
    return (
      <>
        <Alert tone="error">
          <Trans>This link is not valid or has expired.</Trans>
        </Alert>
        <p>
          <Trans>Ask your organization's administrator to send you a new invitation.</Trans>
        </p>
      </>
    );
  if (!invitation)
    return error ? (
      <Alert tone="error">{error}</Alert>
    ) : (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  const organization = invitation.organization_name;
  if (done === 'accepted') {
    return (
      <>
        <Alert tone="success">
          <Trans>You joined {organization}.</Trans>
        </Alert>
        <Button block onClick={() => void navigate({ to: '/settings/{-$section}', params: { section: 'organisation' } })}>
          <Trans>See your organization</Trans>
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
          You are invited to join <strong>{organization}</strong> with the address {invitation.email}. Members share the organization's credits.
        </Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {signedIn && signedInEmail && signedInEmail.toLowerCase() !== invitation.email.toLowerCase() ? (
        <>
          <Alert tone="warning">
            <Trans>
              This invitation was sent to {invitation.email}, but you are signed in as {signedInEmail}. Only the invited address can accept or decline it.
            </Trans>
          </Alert>
          <Button variant="secondary" onClick={() => void switchAccount()} busy={busy}>
            <Trans>Sign in with another account</Trans>
          </Button>
        </>
      ) : signedIn ? (
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
          <Link to="/signup" search={{ ref: invitationRef }} className="button" data-variant="primary" data-block="true">
            <Trans>Create account</Trans>
          </Link>
          <p className="muted">
            <Trans>Already have an account? Sign in with {invitation.email} to accept or decline the invitation.</Trans>
          </p>
          <div className="form-actions">
            <Link to="/login" search={{ ref: invitationRef }} className="button" data-variant="secondary">
              <Trans>Sign in</Trans>
            </Link>
          </div>
          <p className="muted">
            <Trans>Not joining? You can also ignore this invitation: it expires by itself.</Trans>
          </p>
        </>
      )}
    </>
  );
}
