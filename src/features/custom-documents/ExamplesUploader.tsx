import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { Button } from '../../ui/Button';

export const EXAMPLE_ACCEPT = '.pdf,.txt,.md,.png,.jpg,.jpeg,.doc,.docx';

/** Spec §2 file uploader: optional examples, chosen or dropped; each file is sent as it arrives. */
export function ExamplesUploader({ examples, onAdd, onRemove, disabled }: { examples: { id: string; file_name: string }[]; onAdd: (files: File[]) => void; onRemove: (id: string) => void; disabled?: boolean }) {
  const { t } = useLingui();
  const id = useId();
  const [over, setOver] = useState(false);
  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        <Trans>Examples (optional)</Trans>
      </span>
      <div
        className="drop-zone"
        data-over={over}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (!disabled) onAdd([...e.dataTransfer.files]);
        }}
      >
        <p className="muted">
          <Trans>Drop example documents here (PDF, Word, text or pictures, up to 5), or</Trans>
        </p>
        <input
          id={id}
          className="visually-hidden"
          type="file"
          multiple
          accept={EXAMPLE_ACCEPT}
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          onChange={(e) => {
            onAdd([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        {/* After the input, so the input's keyboard focus shows on the label that looks like the button. */}
        <label className="button" data-variant="secondary" htmlFor={id}>
          <Trans>Choose files</Trans>
        </label>
      </div>
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
