import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { useAtomValue } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { accountApi } from '../../../api/account';
import { consultationsApi } from '../../../api/consultations';
import { authAtom, updateUser } from '../../../app-state';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { describeFailure } from '../../i18n/api-error-messages';

type Flag = 'opt_in_newsletter' | 'opt_in_product_contact' | 'save_audios' | 'save_text_data';

/** A few account switches saved together, with what each one means. */
function FlagsForm({ title, intro, flags }: { title: ReactNode; intro?: ReactNode; flags: { key: Flag; label: string; hint: string }[] }) {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const [values, setValues] = useState<Record<Flag, boolean>>(() => ({
    opt_in_newsletter: user?.opt_in_newsletter ?? false,
    opt_in_product_contact: user?.opt_in_product_contact ?? false,
    save_audios: user?.save_audios ?? true,
    save_text_data: user?.save_text_data ?? false,
  }));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string }>();

  async function save() {
    setBusy(true);
    setResult(undefined);
    try {
      const { d_user } = await accountApi.updateAccount(Object.fromEntries(flags.map((f) => [f.key, values[f.key]])));
      updateUser(d_user);
      setResult({ tone: 'success', text: t`Saved.` });
    } catch (err) {
      setResult({ tone: 'error', text: describeFailure(i18n, err, msg`Error updating data`) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card">
      <h2>{title}</h2>
      {intro}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {result && <Alert tone={result.tone}>{result.text}</Alert>}
        {flags.map((f) => (
          <div key={f.key} className="flag">
            <Checkbox label={f.label} checked={values[f.key]} onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.checked }))} />
            <p className="field-hint">{f.hint}</p>
          </div>
        ))}
        <Button type="submit" busy={busy}>
          <Trans>Save</Trans>
        </Button>
      </form>
    </section>
  );
}

export function MarketingSection() {
  const { t } = useLingui();
  return (
    <FlagsForm
      title={<Trans>Marketing preferences</Trans>}
      flags={[
        { key: 'opt_in_newsletter', label: t`Receive the newsletter`, hint: t`News about the product, at most once a month.` },
        { key: 'opt_in_product_contact', label: t`The product team may contact me`, hint: t`To ask for your opinion on new features. Never about patients.` },
      ]}
    />
  );
}

export function StorageSection() {
  const { i18n, t } = useLingui();
  const [minutes, setMinutes] = useState<number>();
  useEffect(() => {
    consultationsApi.capabilities().then(
      (c) => setMinutes(c.retention?.minutes),
      () => undefined,
    );
  }, []);
  const window = minutes === undefined ? '' : minutes >= 60 && minutes % 60 === 0 ? t`${minutes / 60} h` : t`${Math.round(minutes)} min`;
  return (
    <FlagsForm
      title={<Trans>Consultation data storage</Trans>}
      intro={
        <p className="muted">
          {minutes !== undefined ? (
            <Trans>A finished consultation's data is kept for {window}, then deleted: its audio always, its text unless you keep it.</Trans>
          ) : (
            <Trans>A finished consultation's data is kept for a short time, then deleted.</Trans>
          )}{' '}
          {i18n._(msg`Deleted means gone from the database and from file storage.`)}
        </p>
      }
      flags={[
        {
          key: 'save_audios',
          label: t`Keep the audio until the data is deleted`,
          hint: t`Off: each part of the recording is deleted as soon as it is transcribed. You can no longer listen to it.`,
        },
        {
          key: 'save_text_data',
          label: t`Keep the text after that`,
          hint: t`On: the transcript and documents stay in your history after the audio is deleted. Off: everything is deleted at the end of the window.`,
        },
      ]}
    />
  );
}
