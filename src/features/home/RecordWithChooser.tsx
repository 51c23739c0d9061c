import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { accountApi } from '../../api/account';
import { authAtom, updateUser } from '../../app-state';
import { Alert } from '../../ui/Alert';
import { describeFailure } from '../i18n/api-error-messages';

type Mode = 'normal' | 'mobile' | 'teleconsultation';

/** The home's mode chooser: what records the next consultations. Kept in the account (consultation_mode). */
export function RecordWithChooser() {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const [error, setError] = useState<string>();
  const current = (user?.consultation_mode ?? 'normal') as Mode;
  const options: { value: Mode; label: string }[] = [
    { value: 'normal', label: t`This computer` },
    { value: 'mobile', label: t`My phone` },
    { value: 'teleconsultation', label: t`Teleconsultation` },
  ];

  async function choose(mode: Mode) {
    setError(undefined);
    try {
      updateUser((await accountApi.updateAccount({ consultation_mode: mode })).d_user);
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  return (
    <fieldset className="scale record-with">
      <legend>
        <Trans>Record consultations with</Trans>
      </legend>
      <div className="scale-options">
        {options.map((o) => (
          <label key={o.value} className="scale-option">
            <input type="radio" name="record-with" value={o.value} checked={current === o.value} onChange={() => void choose(o.value)} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error && <Alert tone="error">{error}</Alert>}
    </fieldset>
  );
}
