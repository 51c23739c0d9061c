import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Button } from '../../ui/Button';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';

/** The fields a template may name (the offline composer fills `{{key}}`), each shown by its name, never its code. */
export const TEMPLATE_FIELDS: { key: string; label: MessageDescriptor }[] = [
  { key: 'transcript', label: msg`Transcript` },
  { key: 'text', label: msg`Reason for the consultation` },
  { key: 'physical_exam', label: msg`Physical examination` },
  { key: 'exams_data', label: msg`Test results` },
  { key: 'medication', label: msg`Medication` },
  { key: 'bloodpressure', label: msg`Blood pressure` },
  { key: 'next_consultation_date', label: msg`Next consultation` },
  { key: 'clinician', label: msg`Clinician` },
  { key: 'date', label: msg`Date` },
];

/** A template's text with each `{{field}}` shown as a labelled chip (for reading, not editing). */
export function TemplatePreview({ text }: { text: string }) {
  const { i18n } = useLingui();
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)) {
    parts.push(text.slice(last, m.index));
    const field = TEMPLATE_FIELDS.find((f) => f.key === m[1]);
    parts.push(
      <span key={m.index} className="field-chip">
        {field ? i18n._(field.label) : m[1]}
      </span>,
    );
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return <pre className="template-preview">{parts}</pre>;
}

export type TemplateDraft = { name: string; template: string };

/** Checks a template before it is sent: a name, a text, within the server's limits. */
export function templateErrors(draft: TemplateDraft): Partial<Record<keyof TemplateDraft, 'required' | 'too_long'>> {
  const errors: Partial<Record<keyof TemplateDraft, 'required' | 'too_long'>> = {};
  if (!draft.name.trim()) errors.name = 'required';
  else if (draft.name.trim().length > 120) errors.name = 'too_long';
  if (!draft.template.trim()) errors.template = 'required';
  else if (draft.template.trim().length > 20_000) errors.template = 'too_long';
  return errors;
}

/** Name and text of a personal template, with the placeholders it can use. */
export function TemplateForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: TemplateDraft;
  submitLabel: React.ReactNode;
  onSubmit: (d: TemplateDraft) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<TemplateDraft>(initial ?? { name: '', template: '' });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const errors = tried ? templateErrors(draft) : {};
  const message = (code?: 'required' | 'too_long') => (code === 'required' ? t`Fill this field.` : code === 'too_long' ? t`This is too long.` : undefined);

  return (
    <form
      className="template-form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setTried(true);
        if (Object.keys(templateErrors(draft)).length) return;
        setBusy(true);
        try {
          await onSubmit({ name: draft.name.trim(), template: draft.template.trim() });
          if (!initial) {
            setDraft({ name: '', template: '' });
            setTried(false);
          }
        } finally {
          setBusy(false);
        }
      }}
    >
      <TextField
        label={<Trans>Template name</Trans>}
        value={draft.name}
        maxLength={120}
        error={message(errors.name)}
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
      />
      <TextAreaField
        label={<Trans>Template text</Trans>}
        rows={8}
        className="markdown-editor"
        value={draft.template}
        error={message(errors.template)}
        ref={textRef}
        hint={<Trans>Write the layout you want. Without AI, the fields you insert below are filled in from the consultation.</Trans>}
        onChange={(e) => setDraft({ ...draft, template: e.target.value })}
      />
      <fieldset className="field-chips" aria-label={t`Insert a field`}>
        {TEMPLATE_FIELDS.map((f) => {
          const name = i18n._(f.label);
          return (
            <button
              key={f.key}
              type="button"
              className="field-chip"
              aria-label={t`Insert the field ${name}`}
              onClick={() => {
                // At the cursor (or the end), then the cursor after it, so several fields go in one after another.
                const area = textRef.current;
                const at = area?.selectionStart ?? draft.template.length;
                const end = area?.selectionEnd ?? at;
                const token = `{{${f.key}}}`;
                const next = draft.template.slice(0, at) + token + draft.template.slice(end);
                // Committed at once and the cursor placed in the same step: a key pressed straight after the click
                // (a fast typist, or a test) lands after the field, not where a re-render left the cursor.
                flushSync(() => setDraft({ ...draft, template: next }));
                area?.focus();
                area?.setSelectionRange(at + token.length, at + token.length);
              }}
            >
              + {name}
            </button>
          );
        })}
      </fieldset>
      <div className="form-actions">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        )}
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
