import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { accountApi } from '../../api/account';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { NewPasswordFields } from './NewPasswordFields';
import { describeFailure, fieldCodes, isBadLink } from '../i18n/api-error-messages';
import { hasErrors, validateNewPassword } from './validation';
import { summaryMessage } from './validation-messages';

export function ResetPasswordForm({ token }: { token: string }) {
  const { i18n } = useLingui();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState(false);
  const [badLink, setBadLink] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateNewPassword({ password, passwordConfirmation: confirmation });
    setErrors(found);
    setFailure(summaryMessage(i18n, found));
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      await accountApi.resetPassword(token, password, confirmation);
      setDone(true);
    } catch (err) {
      if (isBadLink(err)) {
        setBadLink(true);
        return;
      }
      const fields = fieldCodes(err);
      setErrors({ password: fields.password, passwordConfirmation: fields.password_confirmation });
      setFailure(describeFailure(i18n, err));
    } finally {
      setBusy(false);
    }
  }

  if (badLink) {
    return (
      <>
        <Alert tone="error">
          <Trans>This link is not valid or has expired.</Trans>
        </Alert>
        <p>
          <Trans>Ask for a new link: it is mailed to you and works for a limited time.</Trans>
        </p>
        <Link to="/reset" className="button" data-variant="primary" data-block="true">
          <Trans>Ask for a new link</Trans>
        </Link>
      </>
    );
  }
  if (done) {
    return (
      <>
        <Alert tone="success">
          <Trans>Your password was changed. Sign in with the new password.</Trans>
        </Alert>
        <Link to="/login" className="button" data-variant="primary" data-block="true">
          <Trans>Sign in</Trans>
        </Link>
      </>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      {failure && <Alert tone="error">{failure}</Alert>}
      <NewPasswordFields
        password={password}
        confirmation={confirmation}
        onPassword={setPassword}
        onConfirmation={setConfirmation}
        errors={{ password: errors.password, passwordConfirmation: errors.passwordConfirmation }}
      />
      <Button type="submit" block busy={busy}>
        <Trans>Save new password</Trans>
      </Button>
    </form>
  );
}
