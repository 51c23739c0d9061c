import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { msg } from '@lingui/core/macro';
import { accountApi } from '../../api/account';
import { authAtom, updateUser } from '../../app-state';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { NewPasswordFields } from './NewPasswordFields';
import { describeFailure, fieldCodes } from '../i18n/api-error-messages';
import { hasErrors, validateNewPassword } from './validation';
import { fieldMessage, summaryMessage } from './validation-messages';

const updateFailed = msg`Error updating password`;

/** `onDone` keeps the user where they are (settings); without it, a changed password leads home. */
export function ChangePasswordForm({ onDone }: { onDone?: () => void } = {}) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const forced = useAtomValue(authAtom)?.user?.force_password_change ?? false;
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = { ...validateNewPassword({ password, passwordConfirmation: confirmation }), ...(current ? {} : { current: 'required' as const }) };
    setErrors(found);
    setFailure(summaryMessage(i18n, found));
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const { d_user } = await accountApi.updateAccount({ current_password: current, password });
      updateUser(d_user);
      if (onDone) {
        setBusy(false);
        setCurrent('');
        setPassword('');
        setConfirmation('');
        onDone();
      } else await navigate({ to: '/' });
    } catch (err) {
      const fields = fieldCodes(err);
      setErrors({ current: fields.current_password, password: fields.password });
      setFailure(describeFailure(i18n, err, updateFailed));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      {forced && (
        <Alert tone="info">
          <Trans>For your security, choose a new password before you continue.</Trans>
        </Alert>
      )}
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField
        label={t`Current password`}
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={fieldMessage(i18n, errors.current)}
      />
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
