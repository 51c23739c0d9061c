import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/Button';
import { formatElapsed } from './format-duration';
import type { StopCause } from './interrupted-recording';

/**
 * A recording this device was making stopped because its page went away: said plainly, with the time the kept audio
 * reaches, and continued in one touch (the next parts follow the ones already saved).
 */
export function RecordingStoppedNotice({
  elapsedMs,
  cause,
  onContinue,
  onDismiss,
}: {
  elapsedMs: number;
  cause: StopCause;
  onContinue: () => void;
  onDismiss: () => void;
}) {
  const { t } = useLingui();
  const time = formatElapsed(elapsedMs);
  return (
    <section className="alert recording-stopped" data-tone="warning" aria-label={t`Recording stopped`}>
      <p role="status">
        {cause === 'reloaded' ? (
          <Trans>Recording stopped at {time} when the page was reloaded. What was recorded is kept.</Trans>
        ) : cause === 'left' ? (
          <Trans>Recording stopped at {time} when this consultation's screen was left. What was recorded is kept.</Trans>
        ) : (
          <Trans>Recording stopped at {time} when the page was closed or stopped working. What was recorded is kept.</Trans>
        )}
      </p>
      <div className="form-actions">
        <Button onClick={onContinue}>
          <Trans>Continue recording</Trans>
        </Button>
        <Button variant="secondary" onClick={onDismiss}>
          <Trans>Dismiss</Trans>
        </Button>
      </div>
    </section>
  );
}
