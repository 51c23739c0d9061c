import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import type { SessionResult } from '../../api/account';
import type { Persistence } from '../../app-state';
import { Alert } from '../../ui/Alert';
import { describeFailure, isBadLink, linkNotValid } from '../i18n/api-error-messages';
import { runOnce } from './run-once';
import { beginSession } from './session-actions';

/**
 * Spends a single-use or signed token for a session, then goes home: autologin (phone pairing),
 * integration (a JWT from another system) and e-mail confirmation all work this way.
 */
export function TokenExchange({
  exchangeKey,
  exchange,
  persistence,
  nextStep,
}: {
  exchangeKey: string;
  exchange: () => Promise<SessionResult>;
  persistence: Persistence;
  /** What to do when the link itself is not valid (garbled, spent or expired), said under that message. */
  nextStep: ReactNode;
}) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<{ text: string; badLink: boolean }>();

  useEffect(() => {
    let live = true;
    runOnce(exchangeKey, exchange)
      .then(async ({ token, d_user }) => {
        if (!live) return;
        await beginSession(token, d_user, persistence);
        await navigate({ to: '/', replace: true });
      })
      .catch((err: unknown) => {
        if (!live) return;
        const badLink = isBadLink(err);
        setFailure({ text: badLink ? i18n._(linkNotValid) : describeFailure(i18n, err), badLink });
      });
    return () => {
      live = false;
    };
  }, [exchangeKey, exchange, persistence, navigate, i18n]);

  if (!failure) {
    return (
      <p role="status" aria-live="polite">
        <Trans>Signing you in…</Trans>
      </p>
    );
  }
  return (
    <>
      <Alert tone="error">{failure.text}</Alert>
      {failure.badLink && <p>{nextStep}</p>}
      <Link to="/login">
        <Trans>Go to sign in</Trans>
      </Link>
    </>
  );
}
