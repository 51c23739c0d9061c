import { useId, useState, type ReactNode } from 'react';

/**
 * Files dropped on the zone or chosen with its button (the hidden input keeps the browser's own file picker and
 * its keyboard focus shows on the button). The caller checks what arrives.
 */
export function FileDropZone({
  prompt,
  buttonLabel,
  accept,
  disabled,
  labelId,
  onFiles,
}: {
  prompt: ReactNode;
  buttonLabel: ReactNode;
  accept: string;
  disabled?: boolean;
  /** A field label above the zone, named first when the input is announced. */
  labelId?: string;
  onFiles: (files: File[]) => void;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is the pointer's shortcut; the keyboard (and everyone) has the file input and its button inside.
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
        if (!disabled) onFiles([...e.dataTransfer.files]);
      }}
    >
      <p className="muted" id={`${id}-prompt`}>
        {prompt}
      </p>
      <input
        id={id}
        className="visually-hidden"
        type="file"
        multiple
        accept={accept}
        disabled={disabled}
        aria-labelledby={labelId ? `${labelId} ${id}-prompt` : `${id}-prompt`}
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {/* After the input, so the input's keyboard focus shows on the label that looks like the button. */}
      <label className="button" data-variant="secondary" htmlFor={id}>
        {buttonLabel}
      </label>
    </div>
  );
}
