import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { accountApi } from '../../api/account';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';
import { ApiFailureError } from '../../api/client';
import { beginSession } from './session-actions';
import { hasErrors, validateLogin, type FieldErrors } from './validation';
import { fieldMessage, summaryMessage } from './validation-messages';

/** `invitationToken`: the invitation the clinician came from, shown again once signed in so they can answer it. */
export function LoginForm({ notice, invitationToken }: { notice?: string; invitationToken?: string }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [failure, setFailure] = useState<string>();
  // The server answers a not-yet-confirmed account as a wrong password (so nobody learns which addresses have one).
  const [unconfirmedHint, setUnconfirmedHint] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateLogin({ email, password });
    setErrors(found);
    setFailure(summaryMessage(i18n, found));
    setUnconfirmedHint(false);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const { token, d_user } = await accountApi.login(email.trim(), password);
      await beginSession(token, d_user, remember ? 'local' : 'session');
      await (invitationToken ? navigate({ to: '/organization/invitations/$token', params: { token: invitationToken } }) : navigate({ to: '/' }));
    } catch (err) {
      setFailure(describeFailure(i18n, err));
      setUnconfirmedHint(err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.code === 'invalid_credentials');
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      {notice && <Alert tone="success">{notice}</Alert>}
      {failure && (
        <Alert tone="error">
          {failure}
          {unconfirmedHint && (
            <>
              {' '}
              <Trans>If you have just created your account, open the link in the e-mail we sent you first.</Trans>
            </>
          )}
        </Alert>
      )}
      <TextField
        label={t`E-mail`}
        type="email"
        name="email"
        autoComplete="username"
        inputMode="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldMessage(i18n, errors.email)}
      />
      <TextField
        label={t`Password`}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldMessage(i18n, errors.password)}
      />
      <Checkbox label={t`Remember me on this device`} checked={remember} onChange={(e) => setRemember(e.target.checked)} />
      <Button type="submit" block busy={busy}>
        <Trans>Sign in</Trans>
      </Button>
      <div className="auth-links">
        <Link to="/reset">
          <Trans>Forgot your password?</Trans>
        </Link>
      </div>
    </form>
  );
}
