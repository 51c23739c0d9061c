import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { CRITERION_TYPES, type CriterionDraft } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Checkbox } from '../../ui/Checkbox';
import { Dialog, FormDialogActions } from '../../ui/Dialog';
import { SelectField } from '../../ui/SelectField';
import { TextAreaField } from '../../ui/TextAreaField';
import { criterionTypeLabel } from './research-labels';

/** Add or edit a criterion (spec §3): definition, type and the needs-review flag. */
export function CriterionDialog({
  initial,
  error,
  onSave,
  onClose,
}: {
  initial?: CriterionDraft;
  error?: string;
  onSave: (c: CriterionDraft) => Promise<void>;
  onClose: () => void;
}) {
  const { i18n, t } = useLingui();
  const [criterion, setCriterion] = useState<CriterionDraft>(
    initial
      ? { definition: initial.definition, type: initial.type, needs_review: initial.needs_review }
      : { definition: '', type: 'critical_inclusion', needs_review: false },
  );
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const tooShort = criterion.definition.trim().length < 3;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={initial ? <Trans>Edit criterion</Trans> : <Trans>Add criterion</Trans>}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (tooShort) return;
          setBusy(true);
          void onSave({ ...criterion, definition: criterion.definition.trim() }).finally(() => setBusy(false));
        }}
      >
        <TextAreaField
          label={t`Definition`}
          hint={t`One checkable condition, e.g. “HbA1c between 7% and 10%” or “Age 18 years or older”.`}
          rows={3}
          maxLength={1000}
          autoFocus
          value={criterion.definition}
          error={tried && tooShort ? t`Write at least 3 characters.` : undefined}
          onChange={(e) => setCriterion({ ...criterion, definition: e.target.value })}
        />
        <SelectField
          label={t`Type`}
          value={criterion.type}
          options={CRITERION_TYPES.map((value) => ({ value, label: i18n._(criterionTypeLabel[value]) }))}
          onChange={(e) => setCriterion({ ...criterion, type: e.target.value as CriterionDraft['type'] })}
        />
        <Checkbox
          checked={criterion.needs_review}
          onChange={(e) => setCriterion({ ...criterion, needs_review: e.target.checked })}
          label={t`Needs review: a person checks this criterion for every patient`}
        />
        {error && <Alert tone="error">{error}</Alert>}
        <FormDialogActions onCancel={onClose} submitLabel={<Trans>Save criterion</Trans>} busy={busy} />
      </form>
    </Dialog>
  );
}
