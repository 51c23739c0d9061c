import { Trans } from '@lingui/react/macro';
import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router';
import { CloudOff, TriangleExclamationPoint } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui/Button';
import { isChunkLoadFailure } from './chunk-load-failure';
import { ScreenProblemLayout } from '../../ui/ScreenProblemLayout';

/** While a screen's code cannot be fetched and the device says it is online (the server is down), try again this often. */
export const RETRY_EVERY_MS = 15_000;

/** The address whose error screen last took the focus. */
let focusedAt = '';

function useOnline(): boolean {
  const [online, setOnline] = useState(() => typeof navigator === 'undefined' || navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/**
 * Every route's error screen (the router's defaultErrorComponent), in the interface's language. A screen whose code
 * could not be fetched (offline, or the server down, before the app kept it) says what still works and opens by itself
 * once the code can be fetched; any other error gets a calm message, a retry and a way home. React reports the error
 * (main.tsx, onCaughtError).
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [retrying, setRetrying] = useState(false);
  const chunk = isChunkLoadFailure(error);
  const online = useOnline();

  // Loads the route again: its code, its data; a success replaces this screen.
  const retry = useCallback(() => {
    setRetrying(true);
    router.invalidate().finally(() => setRetrying(false));
  }, [router]);

  // The screen replaced what the clinician was looking at: say so to screen readers and keyboards alike. Once per
  // address: a retry that fails draws this screen anew, and must not pull the focus back every time.
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (focusedAt === window.location.href && !lost) return;
    focusedAt = window.location.href;
    heading.current?.focus();
  }, []);

  useEffect(() => {
    if (!chunk) return;
    window.addEventListener('online', retry);
    // 'online' never comes when the connection is there but the server is not: ask again now and then.
    const timer = window.setInterval(() => {
      if (navigator.onLine) retry();
    }, RETRY_EVERY_MS);
    return () => {
      window.removeEventListener('online', retry);
      window.clearInterval(timer);
    };
  }, [chunk, retry]);

  const actions = (
    <div className="screen-problem-actions">
      <Button onClick={retry} busy={retrying}>
        <Trans>Try again</Trans>
      </Button>
      <Link to="/" className="button" data-variant="secondary">
        <Trans>Go to the home page</Trans>
      </Link>
    </div>
  );

  if (chunk)
    return (
      <ScreenProblemLayout labelledBy={headingId}>
        <CloudOff aria-hidden="true" size={32} className="screen-problem-icon" />
        <h1 id={headingId} ref={heading} tabIndex={-1}>
          <Trans>This screen needs a connection the first time</Trans>
        </h1>
        <p>
          {online ? (
            <Trans>The server cannot be reached right now, and this screen has not been kept on this device yet.</Trans>
          ) : (
            <Trans>This device is offline, and this screen has not been kept on it yet.</Trans>
          )}{' '}
          <Trans>It opens by itself as soon as the connection is back.</Trans>
        </p>
        <p>
          <Trans>Meanwhile, recording works offline: recorded audio is kept on this device and sent when the connection is back.</Trans>
        </p>
        {actions}
      </ScreenProblemLayout>
    );

  return (
    <ScreenProblemLayout labelledBy={headingId}>
      <TriangleExclamationPoint aria-hidden="true" size={32} className="screen-problem-icon" />
      <h1 id={headingId} ref={heading} tabIndex={-1}>
        <Trans>This screen could not be shown</Trans>
      </h1>
      <p>
        <Trans>An unexpected problem stopped it. Try again, or go to the home page; recorded audio stays on this device until it has been sent.</Trans>
      </p>
      {actions}
    </ScreenProblemLayout>
  );
}
