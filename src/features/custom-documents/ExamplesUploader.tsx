import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Button } from '../../ui/Button';
import { FileDropZone } from '../../ui/FileDropZone';

export const EXAMPLE_ACCEPT = '.pdf,.txt,.md,.png,.jpg,.jpeg,.doc,.docx';
/** The server's limit per example file (custom_document_requests/routes.ts), checked before sending. */
export const EXAMPLE_MAX_MB = 10;

/** Spec §2 file uploader: optional examples, chosen or dropped; each file is sent as it arrives. */
export function ExamplesUploader({
  examples,
  onAdd,
  onRemove,
  disabled,
}: {
  examples: { id: string; file_name: string }[];
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  disabled?: boolean;
}) {
  const { t } = useLingui();
  const labelId = useId();
  return (
    <div className="field">
      <span className="field-label" id={labelId}>
        <Trans>Examples (optional)</Trans>
      </span>
      <FileDropZone
        prompt={<Trans>Drop example documents here (PDF, Word, text or pictures; up to 5 files of {EXAMPLE_MAX_MB} MB each), or</Trans>}
        buttonLabel={<Trans>Choose files</Trans>}
        accept={EXAMPLE_ACCEPT}
        disabled={disabled}
        labelId={labelId}
        onFiles={onAdd}
      />
      {examples.length > 0 && (
        <ul className="example-list">
          {examples.map((ex) => (
            <li key={ex.id}>
              {ex.file_name}{' '}
              <Button variant="ghost" onClick={() => onRemove(ex.id)} aria-label={t`Remove ${ex.file_name}`}>
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
