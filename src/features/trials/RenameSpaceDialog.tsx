import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { researchApi, type ResearchSpace } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Dialog, FormDialogActions } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';

export function RenameSpaceDialog({ space, onRenamed, onClose }: { space: ResearchSpace; onRenamed: (space: ResearchSpace) => void; onClose: () => void }) {
  const { i18n, t } = useLingui();
  const [name, setName] = useState(space.name);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={<Trans>Rename space</Trans>}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!name.trim()) return;
          setBusy(true);
          researchApi.renameSpace(space.id, name.trim()).then(
            (r) => onRenamed(r.research_space),
            (err) => {
              setError(describeFailure(i18n, err));
              setBusy(false);
            },
          );
        }}
      >
        <TextField
          label={t`Space name`}
          value={name}
          maxLength={200}
          autoFocus
          error={tried && !name.trim() ? t`Fill this field.` : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        {error && <Alert tone="error">{error}</Alert>}
        <FormDialogActions onCancel={onClose} submitLabel={<Trans>Save</Trans>} busy={busy} />
      </form>
    </Dialog>
  );
}
