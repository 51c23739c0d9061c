import { Trans } from '@lingui/react/macro';
import { useAtom } from 'jotai';
import { updateAvailableAtom } from '../../app-state';
import { Button } from '../../ui/Button';

export function UpdatePrompt() {
  const [apply, setApply] = useAtom(updateAvailableAtom);
  if (!apply) return null;
  return (
    <div className="toast" role="status">
      <span>
        <Trans>A new version of the app is available.</Trans>
      </span>
      <Button variant="secondary" onClick={apply}>
        <Trans>Update</Trans>
      </Button>
      <Button variant="ghost" onClick={() => setApply(null)}>
        <Trans>Later</Trans>
      </Button>
    </div>
  );
}
