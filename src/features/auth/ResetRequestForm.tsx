import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { accountApi } from '../../api/account';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';
import { checkEmail } from './validation';
import { fieldMessage } from './validation-messages';

export function ResetRequestForm() {
  const { i18n, t } = useLingui();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const code = checkEmail(email);
    setError(fieldMessage(i18n, code));
    if (code) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await accountApi.requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (err) {
      setFailure(describeFailure(i18n, err));
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <>
        <Alert tone="success">
          <Trans>If an account exists for {sentTo}, we have sent it a link to choose a new password. The link is valid for 60 minutes.</Trans>
        </Alert>
        <Link to="/login">
          <Trans>Back to sign in</Trans>
        </Link>
      </>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <p className="muted">
        <Trans>Enter your account's e-mail and we will send you a link to choose a new password.</Trans>
      </p>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t`E-mail`} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error} />
      <Button type="submit" block busy={busy}>
        <Trans>Send link</Trans>
      </Button>
      <div className="auth-links">
        <Link to="/login">
          <Trans>Back to sign in</Trans>
        </Link>
      </div>
    </form>
  );
}
