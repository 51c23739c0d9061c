import { Trans, useLingui } from '@lingui/react/macro';
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from './Button';

/**
 * The one modal of the design system (Radix: focus trapped and restored, Escape and the close button close it,
 * the title and description are announced). Content scrolls inside; wide dialogs take `size="wide"`.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  size = 'normal',
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  size?: 'normal' | 'wide';
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog" data-size={size} {...(description ? {} : { 'aria-describedby': undefined })}>
          <RadixDialog.Title>{title}</RadixDialog.Title>
          {description && <RadixDialog.Description className="muted">{description}</RadixDialog.Description>}
          <RadixDialog.Close className="dialog-close" aria-label={t`Close`}>
            ×
          </RadixDialog.Close>
          <div className="dialog-body">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The foot of a form inside a dialog: Cancel, then the form's own submit button. */
export function FormDialogActions({ onCancel, submitLabel, busy }: { onCancel: () => void; submitLabel: ReactNode; busy?: boolean }) {
  return (
    <div className="dialog-actions">
      <Button variant="secondary" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </Button>
      <Button type="submit" busy={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
