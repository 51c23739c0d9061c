import { useLingui } from '@lingui/react/macro';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useAtom } from 'jotai';
import { confirmAtom } from '../app-state';

/**
 * The general confirmation dialog: info (one OK button), confirm and warning (Confirm + Cancel, and a close
 * button). Radix traps focus, restores it on close and closes on Escape (which counts as cancel).
 */
export function ConfirmDialogHost() {
  const { t } = useLingui();
  const [request, setRequest] = useAtom(confirmAtom);
  if (!request) return null;
  const cancellable = request.type !== 'info';
  const answer = (value: boolean) => {
    setRequest(null);
    request.resolve(value);
  };
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && answer(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog"
          data-type={request.type}
          onEscapeKeyDown={(e) => {
            e.preventDefault();
            answer(!cancellable);
          }}
        >
          <AlertDialog.Title>{request.title}</AlertDialog.Title>
          <AlertDialog.Description>{request.message}</AlertDialog.Description>
          {cancellable && (
            <AlertDialog.Cancel className="dialog-close" aria-label={t`Close`}>
              ×
            </AlertDialog.Cancel>
          )}
          <div className="dialog-actions">
            {cancellable && (
              <AlertDialog.Cancel className="button" data-variant="secondary">
                {request.cancelLabel ?? t`Cancel`}
              </AlertDialog.Cancel>
            )}
            <AlertDialog.Action
              className="button"
              data-variant={request.type === 'warning' ? 'danger' : 'primary'}
              onClick={(e) => {
                e.preventDefault();
                answer(true);
              }}
            >
              {request.confirmLabel ?? (request.type === 'info' ? t`OK` : t`Confirm`)}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
