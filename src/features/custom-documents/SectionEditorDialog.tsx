import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { RequestSection } from '../../api/custom-documents';
import { Dialog, FormDialogActions } from '../../ui/Dialog';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';

/** Spec §2 section editor modal: title, description and a change-request comment. */
export function SectionEditorDialog({
  initial,
  onSave,
  onClose,
  focusChange,
}: {
  initial?: RequestSection;
  onSave: (s: RequestSection) => void;
  onClose: () => void;
  focusChange?: boolean;
}) {
  const { t } = useLingui();
  const [section, setSection] = useState<RequestSection>(initial ?? { title: '', description: '', change_request: '' });
  const [tried, setTried] = useState(false);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={initial ? <Trans>Edit section</Trans> : <Trans>New section</Trans>}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!section.title.trim()) return;
          onSave({ title: section.title.trim(), description: section.description.trim(), change_request: section.change_request.trim() });
        }}
      >
        <TextField
          label={t`Section title`}
          value={section.title}
          maxLength={200}
          autoFocus={!focusChange}
          error={tried && !section.title.trim() ? t`Fill this field.` : undefined}
          onChange={(e) => setSection({ ...section, title: e.target.value })}
        />
        <TextAreaField
          label={t`What goes in it`}
          rows={3}
          maxLength={2000}
          value={section.description}
          onChange={(e) => setSection({ ...section, description: e.target.value })}
        />
        <TextAreaField
          label={t`Changes you want`}
          hint={t`For example: always as a table, or leave out when normal.`}
          rows={3}
          maxLength={2000}
          autoFocus={focusChange}
          value={section.change_request}
          onChange={(e) => setSection({ ...section, change_request: e.target.value })}
        />
        <FormDialogActions onCancel={onClose} submitLabel={<Trans>Save section</Trans>} />
      </form>
    </Dialog>
  );
}
