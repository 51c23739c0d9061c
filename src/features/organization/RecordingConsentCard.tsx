import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, type FormEvent } from 'react';
import { organizationsApi, type ConsentRule } from '../../api/organizations';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/SelectField';
import { describeFailure } from '../i18n/api-error-messages';

/** Settings › organisation, for admins: how the patient's consent to recording is asked before a consultation is recorded. */
export function RecordingConsentCard({ orgId, rule }: { orgId: string; rule: ConsentRule }) {
  const { i18n, t } = useLingui();
  const [value, setValue] = useState<ConsentRule>(rule);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => setValue(rule), [rule]);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setValue((await organizationsApi.setRecordingConsent(orgId, value)).recording_consent);
      setNotice(t`Saved. Consultations begun from now on follow it.`);
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card" aria-labelledby="org-recording-consent">
      <h2 id="org-recording-consent">
        <Trans>Patient consent to recording</Trans>
      </h2>
      <p className="muted">
        <Trans>Asked before the first part of a consultation is recorded, and kept with the consultation and in the audit log.</Trans>
      </p>
      <form onSubmit={(e) => void save(e)}>
        <SelectField
          label={<Trans>Consent</Trans>}
          value={value}
          onChange={(e) => setValue(e.target.value as ConsentRule)}
          options={[
            { value: 'off', label: t`Not asked` },
            { value: 'clinician', label: t`The clinician confirms the patient's verbal consent` },
            { value: 'patient', label: t`The patient confirms on the screen` },
          ]}
        />
        <div className="row-actions">
          <Button type="submit" busy={saving}>
            <Trans>Save</Trans>
          </Button>
        </div>
        <p role="status" className="muted">
          {notice}
        </p>
        {error && <Alert tone="error">{error}</Alert>}
      </form>
    </section>
  );
}
