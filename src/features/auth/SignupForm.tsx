import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { LANGUAGES, type Language } from '../../../contract/constants';
import { accountApi } from '../../api/account';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/SelectField';
import { TextField } from '../../ui/TextField';
import { describeFailure, fieldCodes } from '../i18n/api-error-messages';
import { LANGUAGE_NAMES } from '../i18n/LanguageSwitch';
import { beginSession } from './session-actions';
import { hasErrors, validateSignup } from './validation';
import { fieldMessage, summaryMessage } from './validation-messages';

type Field = 'name' | 'email' | 'password' | 'passwordConfirmation' | 'language';

/** Signup exists only through an invitation: the ref carries its token (the navigation rules checked its form). */
export function SignupForm({ invitationRef }: { invitationRef: string }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    email: '',
    password: '',
    passwordConfirmation: '',
    language: i18n.locale,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [checkMail, setCheckMail] = useState(false);
  const set = (k: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateSignup(values);
    setErrors(found);
    setFailure(summaryMessage(i18n, found));
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const token = invitationRef.split('/').pop();
      const result = await accountApi.signup(
        { name: values.name.trim(), email: values.email.trim(), password: values.password, language: values.language as Language },
        token,
      );
      if ('checkMail' in result) {
        setCheckMail(true);
        setBusy(false);
        return;
      }
      await beginSession(result.token, result.d_user, 'session');
      await navigate({ to: '/' });
    } catch (err) {
      setErrors(fieldCodes(err));
      setFailure(describeFailure(i18n, err));
      setBusy(false);
    }
  }

  const msg = (f: Field) => fieldMessage(i18n, errors[f]);
  if (checkMail) {
    const email = values.email.trim();
    return (
      <div>
        <Alert tone="info">
          <Trans>Check your mailbox: we sent a message to {email} with what to do next.</Trans>
        </Alert>
        <p className="muted">
          <Trans>If this address already has an account, the message says how to sign in or reset the password.</Trans>
        </p>
        <div className="auth-links">
          <Link to="/login">
            <Trans>Go to sign in</Trans>
          </Link>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <p className="muted">
        <Trans>You were invited to join an organization. Create your account to accept.</Trans>
      </p>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField label={t`Full name`} name="name" autoComplete="name" value={values.name} onChange={set('name')} error={msg('name')} />
      <TextField
        label={t`E-mail`}
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        value={values.email}
        onChange={set('email')}
        error={msg('email')}
        hint={t`Use the address the invitation was sent to.`}
      />
      <TextField
        label={t`Password`}
        type="password"
        name="password"
        autoComplete="new-password"
        value={values.password}
        onChange={set('password')}
        error={msg('password')}
        hint={t`At least 6 characters.`}
      />
      <TextField
        label={t`Confirm password`}
        type="password"
        name="passwordConfirmation"
        autoComplete="new-password"
        value={values.passwordConfirmation}
        onChange={set('passwordConfirmation')}
        error={msg('passwordConfirmation')}
      />
      <SelectField
        label={t`Language`}
        name="language"
        value={values.language}
        onChange={set('language')}
        error={msg('language')}
        options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
      />
      <Button type="submit" block busy={busy}>
        <Trans>Create account</Trans>
      </Button>
      <div className="auth-links">
        <Link to="/login">
          <Trans>Already have an account? Sign in</Trans>
        </Link>
      </div>
    </form>
  );
}
