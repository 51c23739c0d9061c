import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { consultationsApi, type ConsultationTypeView, type UserInput } from '../../api/consultations';
import { templatesApi, type ProcessorInputView } from '../../api/templates';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/SelectField';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';
import { recordingMessages } from '../recording/recording-messages';

/** Spec §3 notes generation data, in the order a clinician fills them. */
const FIELDS: { id: string; label: MessageDescriptor; kind: 'text' | 'long' | 'date'; hint?: MessageDescriptor }[] = [
  { id: 'text', label: msg`Reason for the consultation`, kind: 'long' },
  { id: 'previous_consultation', label: msg`Previous consultation`, kind: 'long' },
  { id: 'physical_exam', label: msg`Physical examination`, kind: 'long' },
  { id: 'exams_data', label: msg`Test results`, kind: 'long' },
  { id: 'bloodpressure', label: msg`Blood pressure`, kind: 'text', hint: msg`For example 120/80 mmHg` },
  { id: 'hemoglobinac', label: msg`HbA1c`, kind: 'text', hint: msg`For example 6.5 %` },
  { id: 'colesterol', label: msg`Cholesterol`, kind: 'text', hint: msg`For example 190 mg/dL` },
  { id: 'weightmassindex', label: msg`Body mass index`, kind: 'text', hint: msg`For example 24.5 kg/m²` },
  { id: 'medication', label: msg`Medication`, kind: 'long' },
  { id: 'next_consultation_date', label: msg`Next consultation`, kind: 'date' },
  { id: 'extra_text', label: msg`Assessment and other notes`, kind: 'long' },
];

type SessionData = { id: string; status: string; user_inputs?: unknown[] };

function initialValues(session: SessionData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const input of (session.user_inputs ?? []) as Partial<UserInput>[]) {
    if (typeof input.processor_input_id === 'string' && typeof input.value === 'string') values[input.processor_input_id] = input.value;
  }
  return values;
}

/**
 * The data the documents are written from besides the transcript, and the personal template chosen for each
 * document. Saved with the consultation (user inputs); documents written after saving use them.
 */
export function NotesDataForm({ session, type, onSaved }: { session: SessionData; type: ConsultationTypeView; onSaved?: () => void }) {
  const { i18n, t } = useLingui();
  const [values, setValues] = useState(() => initialValues(session));
  const [inputs, setInputs] = useState<ProcessorInputView[]>([]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string }>();

  useEffect(() => {
    const wanted = new Set(type.processor_inputs.map((p) => p.id));
    templatesApi.inputs().then(
      (r) => setInputs(r.processor_inputs.filter((p) => wanted.has(p.id) && p.templates.length > 0)),
      () => undefined,
    );
  }, [type]);

  const set = (id: string, value: string) => setValues((v) => ({ ...v, [id]: value }));

  // Once the consultation has ended, what the transcript already says (blood pressure, medicines…) is offered
  // for the empty fields, each with the sentence it was heard in; nothing is taken without the clinician.
  const [heard, setHeard] = useState<{ processor_input_id: string; value: string; source: string }[]>([]);
  useEffect(() => {
    if (session.status === 'active') return;
    consultationsApi.suggestedInputs(session.id).then(
      (r) => setHeard(r.suggested_inputs),
      () => setHeard([]),
    );
  }, [session.id, session.status]);
  const offered = heard.filter((h) => !values[h.processor_input_id]?.trim());
  const labelOf = (id: string) => {
    const field = FIELDS.find((f) => f.id === id);
    return field ? i18n._(field.label) : id;
  };

  async function save() {
    setBusy(true);
    setResult(undefined);
    try {
      const userInputs = Object.entries(values)
        .filter(([, value]) => value.trim())
        .map(([processor_input_id, value]) => ({ processor_input_id, value: value.trim() }));
      await consultationsApi.saveInputs(session.id, userInputs);
      setResult({
        tone: 'success',
        text: session.status === 'active' ? t`Saved. The documents will use these data.` : t`Saved. Use “Write again” on a document to include them.`,
      });
      onSaved?.();
    } catch (err) {
      setResult({ tone: 'error', text: describeFailure(i18n, err, recordingMessages.saveTranscriptFailed) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="notes-data-title">
      <h2 id="notes-data-title">
        <Trans>Consultation data</Trans>
      </h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {inputs.length > 0 && (
          <div className="form-grid">
            {inputs.map((input) => (
              <SelectField
                key={input.id}
                label={input.name}
                value={values[input.id] ?? ''}
                onChange={(e) => set(input.id, e.target.value)}
                options={[{ value: '', label: t`Standard layout` }, ...input.templates.map((tpl) => ({ value: tpl.id, label: tpl.name }))]}
              />
            ))}
          </div>
        )}
        {offered.length > 0 && (
          <fieldset className="heard-inputs" aria-labelledby="heard-inputs-title">
            <p id="heard-inputs-title">
              <strong>
                <Trans>Heard in the consultation</Trans>
              </strong>{' '}
              <span className="muted">
                <Trans>Check each one before you use it; press “Save data” to keep them.</Trans>
              </span>
            </p>
            <ul>
              {offered.map((h) => {
                const field = labelOf(h.processor_input_id);
                const value = h.value;
                return (
                  <li key={h.processor_input_id}>
                    <span>
                      <strong>{field}:</strong> {value}
                    </span>{' '}
                    <Button variant="secondary" onClick={() => set(h.processor_input_id, value)} aria-label={t`Use for ${field}: ${value}`}>
                      <Trans>Use</Trans>
                    </Button>
                    <div className="muted">
                      <Trans>Heard:</Trans> “{h.source}”
                    </div>
                  </li>
                );
              })}
            </ul>
            {offered.length > 1 && (
              <Button variant="ghost" onClick={() => setValues((v) => ({ ...v, ...Object.fromEntries(offered.map((h) => [h.processor_input_id, h.value])) }))}>
                <Trans>Use all</Trans>
              </Button>
            )}
          </fieldset>
        )}
        <div className="form-grid">
          {type.selectable_documents?.some((d) => d.id === 'patient_summary') && (
            <SelectField
              label={t`Patient's language (patient summary)`}
              value={values.patient_language ?? ''}
              onChange={(e) => set('patient_language', e.target.value)}
              options={[
                { value: '', label: t`The same as mine` },
                // Each language in its own name: the patient may point at theirs.
                { value: 'pt', label: 'Português' },
                { value: 'en', label: 'English' },
                { value: 'de', label: 'Deutsch' },
                { value: 'es', label: 'Español' },
              ]}
            />
          )}
          {FIELDS.map((f) =>
            f.kind === 'long' ? (
              <div key={f.id} className="form-grid-wide">
                <TextAreaField label={i18n._(f.label)} rows={2} value={values[f.id] ?? ''} maxLength={50_000} onChange={(e) => set(f.id, e.target.value)} />
              </div>
            ) : (
              <TextField
                key={f.id}
                label={i18n._(f.label)}
                hint={f.hint ? i18n._(f.hint) : undefined}
                type={f.kind === 'date' ? 'date' : 'text'}
                value={values[f.id] ?? ''}
                maxLength={200}
                onChange={(e) => set(f.id, e.target.value)}
              />
            ),
          )}
        </div>
        {result && <Alert tone={result.tone}>{result.text}</Alert>}
        <Button type="submit" busy={busy}>
          <Trans>Save data</Trans>
        </Button>
      </form>
    </section>
  );
}
