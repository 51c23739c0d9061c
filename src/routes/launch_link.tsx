import { Trans, useLingui } from '@lingui/react/macro';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { accountApi } from '../api/account';
import type { LaunchLink } from '../../contract/account';
import { AuthLayout } from '../features/auth/AuthLayout';
import { beginSession } from '../features/auth/session-actions';
import { describeFailure } from '../features/i18n/api-error-messages';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { TextField } from '../ui/TextField';

/**
 * A launch from the record system named an account that existed before it was linked: the account's password,
 * once, links the record system's user to it (server/src/modules/launch). Later launches sign in at once.
 * Signed in for this browser session only, as after any launch.
 */
export const Route = createFileRoute('/launch_link')({
  component: function LaunchLinkPage() {
    const { i18n, t } = useLingui();
    const navigate = useNavigate();
    const [link, setLink] = useState<LaunchLink>();
    // The failure itself, worded at render: the language changes when the session begins, and the request must not run again then.
    const [gone, setGone] = useState<unknown>();
    const [password, setPassword] = useState('');
    const [missing, setMissing] = useState(false);
    const [failure, setFailure] = useState<string>();
    const [busy, setBusy] = useState(false);

    useEffect(() => {
      let live = true;
      accountApi
        .launchLink()
        .then(({ launch_link }) => live && setLink(launch_link))
        .catch((err: unknown) => live && setGone(err ?? new Error('launch link')));
      return () => {
        live = false;
      };
    }, []);

    async function submit(e: FormEvent) {
      e.preventDefault();
      setMissing(!password);
      setFailure(undefined);
      if (!password) return;
      setBusy(true);
      try {
        const { token, d_user } = await accountApi.linkLaunch(password);
        await beginSession(token, d_user, 'session');
        await navigate({ to: '/', replace: true });
      } catch (err) {
        setFailure(describeFailure(i18n, err));
        setBusy(false);
      }
    }

    return (
      <AuthLayout title={link?.again ? <Trans>Confirm it is you</Trans> : <Trans>Link your record system user to your account</Trans>}>
        {gone !== undefined ? (
          <>
            <Alert tone="error">{describeFailure(i18n, gone)}</Alert>
            <p>
              <Trans>Open the consultation again from the record system.</Trans>{' '}
              <Link to="/login">
                <Trans>Sign in here instead</Trans>
              </Link>
            </p>
          </>
        ) : !link ? (
          <p role="status" aria-live="polite">
            <Trans>Loading…</Trans>
          </p>
        ) : (
          <form onSubmit={submit} noValidate>
            {link.again ? (
              <p>
                <Trans>
                  The record system opened this consultation for <strong>{link.email}</strong>. This account administers its organization, so its password is
                  asked at every launch from the record system.
                </Trans>
              </p>
            ) : (
              <p>
                <Trans>
                  The record system opened this consultation for <strong>{link.email}</strong>, which already has an account here. For your safety, enter that
                  account's password once to link them; from then on the record system signs you in directly.
                </Trans>
              </p>
            )}
            <dl className="facts">
              <dt>
                <Trans>Record system</Trans>
              </dt>
              <dd>{new URL(link.record_system).host}</dd>
              <dt>
                <Trans>Its user</Trans>
              </dt>
              <dd>{link.record_system_user}</dd>
            </dl>
            <p className="muted">
              <Trans>If this is not you, do not enter the password: close this window.</Trans>
            </p>
            {failure && <Alert tone="error">{failure}</Alert>}
            {/* The e-mail travels with the password so that password managers offer the right entry. */}
            <input type="email" name="email" autoComplete="username" value={link.email} readOnly hidden />
            <TextField
              label={t`Password`}
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={missing ? t`Enter your password` : undefined}
            />
            <Button type="submit" block busy={busy}>
              {link.again ? <Trans>Open the consultation</Trans> : <Trans>Link and open the consultation</Trans>}
            </Button>
            <div className="auth-links">
              <Link to="/reset">
                <Trans>Forgot your password?</Trans>
              </Link>
            </div>
          </form>
        )}
      </AuthLayout>
    );
  },
});
