import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { TrialDraft } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Dialog, FormDialogActions } from '../../ui/Dialog';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';

/** Add or edit a trial: its name and a description (a protocol summary, from which criteria can be generated). */
export function TrialDialog({
  initial,
  error,
  onSave,
  onClose,
}: {
  initial?: TrialDraft;
  error?: string;
  onSave: (trial: TrialDraft) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const [trial, setTrial] = useState<TrialDraft>({ name: initial?.name ?? '', description: initial?.description ?? '' });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open size="wide" onOpenChange={(open) => !open && onClose()} title={initial ? <Trans>Edit trial</Trans> : <Trans>Add trial</Trans>}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!trial.name.trim()) return;
          setBusy(true);
          void onSave({ name: trial.name.trim(), description: trial.description.trim() }).finally(() => setBusy(false));
        }}
      >
        <TextField
          label={t`Trial name`}
          value={trial.name}
          maxLength={300}
          autoFocus
          error={tried && !trial.name.trim() ? t`Fill this field.` : undefined}
          onChange={(e) => setTrial({ ...trial, name: e.target.value })}
        />
        <TextAreaField
          label={t`Description`}
          hint={t`Paste the protocol summary. Criteria listed under “Inclusion criteria” and “Exclusion criteria” can then be generated automatically.`}
          rows={10}
          maxLength={50_000}
          value={trial.description}
          onChange={(e) => setTrial({ ...trial, description: e.target.value })}
        />
        {error && <Alert tone="error">{error}</Alert>}
        <FormDialogActions onCancel={onClose} submitLabel={<Trans>Save trial</Trans>} busy={busy} />
      </form>
    </Dialog>
  );
}
