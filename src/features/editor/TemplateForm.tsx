import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';

const PLACEHOLDERS = ['transcript', 'text', 'physical_exam', 'exams_data', 'medication', 'bloodpressure', 'next_consultation_date', 'clinician', 'date'];

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
export function TemplateForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: TemplateDraft; submitLabel: React.ReactNode; onSubmit: (d: TemplateDraft) => Promise<void>; onCancel?: () => void }) {
  const { t } = useLingui();
  const [draft, setDraft] = useState<TemplateDraft>(initial ?? { name: '', template: '' });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
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
      <TextField label={<Trans>Template name</Trans>} value={draft.name} maxLength={120} error={message(errors.name)} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
      <TextAreaField
        label={<Trans>Template text</Trans>}
        rows={8}
        className="markdown-editor"
        value={draft.template}
        error={message(errors.template)}
        hint={
          <>
            <Trans>Write the layout you want. Without AI, these fields are filled in:</Trans> <code>{PLACEHOLDERS.map((p) => `{{${p}}}`).join(' ')}</code>
          </>
        }
        onChange={(e) => setDraft({ ...draft, template: e.target.value })}
      />
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
