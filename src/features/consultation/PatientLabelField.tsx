import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { PATIENT_LABEL_MAX } from '../../../contract/constants';
import { consultationsApi } from '../../api/consultations';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';

/**
 * An optional label for whom the consultation was with (a name, initials, a bed number: the clinician's choice),
 * so that recent consultations are told apart. Saved when the field is left; read-only once archived.
 */
export function PatientLabelField({ sessionId, label, readOnly }: { sessionId: string; label: string | null | undefined; readOnly: boolean }) {
  const { i18n, t } = useLingui();
  const [value, setValue] = useState(label ?? '');
  // The label the server last had: what a typed value is compared with, never drawn.
  const saved = useRef(label ?? '');
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [error, setError] = useState<string>();

  // Set elsewhere (the record system, another device): shown unless the clinician is typing a change.
  useEffect(() => {
    const before = saved.current;
    const next = label ?? '';
    saved.current = next;
    setValue((typed) => (typed === before ? next : typed));
  }, [label]);

  if (readOnly) {
    return label ? (
      <p className="patient-label">
        <span className="muted">
          <Trans>Patient</Trans>:
        </span>{' '}
        {label}
      </p>
    ) : null;
  }

  async function save() {
    const next = value.trim();
    if (next === saved.current) return;
    setState('saving');
    setError(undefined);
    try {
      const { consultation_session } = await consultationsApi.setPatientLabel(sessionId, next);
      saved.current = consultation_session.patient_label ?? '';
      setValue(consultation_session.patient_label ?? '');
      setState('saved');
    } catch (err) {
      setError(describeFailure(i18n, err));
      setState('idle');
    }
  }

  return (
    <div className="patient-label-field">
      <TextField
        label={t`Patient (optional)`}
        hint={state === 'saved' ? <span role="status">{t`Saved.`}</span> : t`A name, initials or bed, to find this consultation again.`}
        value={value}
        maxLength={PATIENT_LABEL_MAX}
        autoComplete="off"
        onChange={(e) => {
          setValue(e.target.value);
          setState('idle');
        }}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void save();
        }}
        error={error}
      />
    </div>
  );
}
