import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { useAtomValue } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import type { MedicalSpeciality } from '../../../../contract/account';
import { isLanguage } from '../../../../contract/constants';
import { accountApi } from '../../../api/account';
import { authAtom, updateUser } from '../../../app-state';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { confirm } from '../../../ui/confirm';
import { SelectField } from '../../../ui/SelectField';
import { TextField } from '../../../ui/TextField';
import { ChangePasswordForm } from '../../auth/ChangePasswordForm';
import { endSession } from '../../auth/session-actions';
import { checkName, checkPhone } from '../../auth/validation';
import { fieldMessage } from '../../auth/validation-messages';
import { describeFailure, fieldCodes } from '../../i18n/api-error-messages';
import { activateLocale } from '../../i18n/activate';
import { LANGUAGE_NAMES } from '../../i18n/LanguageSwitch';

const updateFailed = msg`Error updating data`;

/** Spec §2 settings › account: profile, language, speciality, home and recording preferences, password, deletion. */
export function AccountSection() {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const [form, setForm] = useState(() => ({
    name: user?.name ?? '',
    phone_number: user?.phone_number ?? '',
    language: user?.language ?? 'pt',
    medical_speciality_id: user?.medical_speciality_id ?? '',
    v2_home: user?.v2_home ?? false,
    consultation_mode: user?.consultation_mode ?? 'normal',
  }));
  // The header's language switch changes the interface and the account's language at once; the form follows it,
  // so that it never shows the old language nor sets it back on Save.
  const [followedLocale, setFollowedLocale] = useState(i18n.locale);
  const locale = i18n.locale;
  if (followedLocale !== locale) {
    setFollowedLocale(locale);
    if (isLanguage(locale)) setForm((f) => ({ ...f, language: locale }));
  }
  const [specialities, setSpecialities] = useState<MedicalSpeciality[]>([]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);
  const [passwordSaved, setPasswordSaved] = useState(false);

  useEffect(() => {
    accountApi.medicalSpecialities().then(
      (r) => setSpecialities(r.medical_specialities),
      () => undefined,
    );
  }, []);
  if (!user) return null;

  async function save(e: FormEvent) {
    e.preventDefault();
    const found = { name: checkName(form.name), phone_number: form.phone_number.trim() ? checkPhone(form.phone_number) : undefined };
    setErrors(found);
    if (found.name || found.phone_number) return;
    setBusy(true);
    setResult(undefined);
    try {
      const { d_user } = await accountApi.updateAccount({
        name: form.name.trim(),
        phone_number: form.phone_number.trim() || null,
        language: form.language,
        medical_speciality_id: form.medical_speciality_id || null,
        v2_home: form.v2_home,
        consultation_mode: form.consultation_mode,
      });
      updateUser(d_user);
      if (d_user.language !== i18n.locale) await activateLocale(d_user.language, { remember: true });
      setResult({ tone: 'success', text: t`Your details were saved.` });
    } catch (err) {
      const fields = fieldCodes(err);
      setErrors({ name: fields['user.name'], phone_number: fields['user.phone_number'] });
      setResult({ tone: 'error', text: describeFailure(i18n, err, updateFailed) });
    } finally {
      setBusy(false);
    }
  }

  async function deleteAccount() {
    const ok = await confirm({
      type: 'warning',
      title: t`Delete your account?`,
      message: t`Your account, your consultations, their documents and your templates are deleted for good. This cannot be undone.`,
      confirmLabel: t`Delete my account`,
    });
    if (!ok) return;
    try {
      await accountApi.deleteAccount();
      await endSession();
    } catch (err) {
      setResult({ tone: 'error', text: describeFailure(i18n, err, updateFailed) });
    }
  }

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));
  return (
    <div className="settings-section">
      <section className="card" aria-labelledby="account-details">
        <h2 id="account-details">
          <Trans>Your details</Trans>
        </h2>
        <form onSubmit={save} noValidate>
          {result && <Alert tone={result.tone}>{result.text}</Alert>}
          <TextField
            label={t`Name`}
            value={form.name}
            autoComplete="name"
            onChange={(e) => set('name', e.target.value)}
            error={fieldMessage(i18n, errors.name)}
          />
          <TextField
            label={t`E-mail`}
            value={user.email}
            readOnly
            hint={<Trans>Your e-mail address cannot be changed here. Write to support to change it.</Trans>}
          />
          <TextField
            label={t`Phone`}
            type="tel"
            autoComplete="tel"
            value={form.phone_number}
            onChange={(e) => set('phone_number', e.target.value)}
            error={fieldMessage(i18n, errors.phone_number)}
          />
          <SelectField
            label={t`Language`}
            value={form.language}
            onChange={(e) => set('language', e.target.value as typeof form.language)}
            options={Object.entries(LANGUAGE_NAMES).map(([value, label]) => ({ value, label }))}
          />
          <SelectField
            label={t`Medical speciality`}
            value={form.medical_speciality_id}
            onChange={(e) => set('medical_speciality_id', e.target.value)}
            options={[{ value: '', label: t`Not stated` }, ...specialities.map((s) => ({ value: s.id, label: s.name }))]}
          />
          <SelectField
            label={t`Record consultations with`}
            value={form.consultation_mode}
            onChange={(e) => set('consultation_mode', e.target.value as typeof form.consultation_mode)}
            options={[
              { value: 'normal', label: t`This computer` },
              { value: 'mobile', label: t`My phone` },
              { value: 'teleconsultation', label: t`Teleconsultation` },
            ]}
          />
          <Checkbox label={t`Use the alternative home page`} checked={form.v2_home} onChange={(e) => set('v2_home', e.target.checked)} />
          <Button type="submit" busy={busy}>
            <Trans>Save</Trans>
          </Button>
        </form>
      </section>
      <section className="card" aria-labelledby="account-password">
        <h2 id="account-password">
          <Trans>Password</Trans>
        </h2>
        {passwordSaved && (
          <Alert tone="success">
            <Trans>Your password was changed.</Trans>
          </Alert>
        )}
        <ChangePasswordForm onDone={() => setPasswordSaved(true)} />
      </section>
      <section className="card" aria-labelledby="account-delete">
        <h2 id="account-delete">
          <Trans>Delete account</Trans>
        </h2>
        <p className="muted">
          <Trans>Deleting your account removes your data from this service.</Trans>
        </p>
        <Button variant="danger" onClick={() => void deleteAccount()}>
          <Trans>Delete my account</Trans>
        </Button>
      </section>
    </div>
  );
}
