import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { type AwaitedOnDevice, formatCountdown, type MissingStretch, missingCount, timeLeft } from './awaited-parts';

/**
 * Which recorded parts the notes still wait for, from which device, and the time left before the document is
 * written without them. The countdown is drawn every second for the eye only; what a screen reader hears is a
 * polite status that names the clock time instead, so it speaks when the parts awaited change, not every second.
 */
export function AwaitedPartsNotice({ awaited }: { awaited: AwaitedOnDevice }) {
  const { i18n, t } = useLingui();
  const [now, setNow] = useState(() => Date.now());
  const left = timeLeft(awaited.deadline, now);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [left]);

  const many = missingCount(awaited.missing) > 1;
  const countdown = formatCountdown(left);
  const clock = i18n.date(new Date(awaited.deadline), { timeStyle: 'short' });
  const parts = awaited.missing.map((stretch) => describeStretch(stretch, i18n)).join(' ');
  const over = left <= 0;
  const shown = over
    ? many
      ? t`The document is being written without them.`
      : t`The document is being written without it.`
    : many
      ? t`The document will be written without them in ${countdown}.`
      : t`The document will be written without it in ${countdown}.`;
  const said = over ? shown : many ? t`The document will be written without them at ${clock}.` : t`The document will be written without it at ${clock}.`;
  return (
    <div className="awaited-parts" data-testid="awaited-parts">
      <p aria-hidden="true">
        {parts} <span data-left-ms={left}>{shown}</span>
      </p>
      <p className="visually-hidden" role="status">
        {parts} {said}
      </p>
      {!over && (
        <p className="muted">
          {many ? (
            <Trans>The device that recorded them sends them as soon as it has a connection.</Trans>
          ) : (
            <Trans>The device that recorded it sends it as soon as it has a connection.</Trans>
          )}
        </p>
      )}
    </div>
  );
}

/** One stretch of missing parts, counted from 1 as the clinician counts them, and the device it comes from. */
function describeStretch(stretch: MissingStretch, i18n: I18n): string {
  const part = stretch.first_order + 1;
  const last = stretch.last_order + 1;
  if (part === last) {
    switch (stretch.device) {
      case 'phone':
        return i18n._(msg`Waiting for part ${part} from the phone.`);
      case 'computer':
        return i18n._(msg`Waiting for part ${part} from the computer.`);
      case 'teleconsultation':
        return i18n._(msg`Waiting for part ${part} from the computer recording the call.`);
      default:
        return i18n._(msg`Waiting for part ${part}.`);
    }
  }
  switch (stretch.device) {
    case 'phone':
      return i18n._(msg`Waiting for parts ${part}–${last} from the phone.`);
    case 'computer':
      return i18n._(msg`Waiting for parts ${part}–${last} from the computer.`);
    case 'teleconsultation':
      return i18n._(msg`Waiting for parts ${part}–${last} from the computer recording the call.`);
    default:
      return i18n._(msg`Waiting for parts ${part}–${last}.`);
  }
}
