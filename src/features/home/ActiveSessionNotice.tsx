import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { consultationsApi } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { consultationPathFor } from '../auth/navigation-rules';
import { describeFailure } from '../i18n/api-error-messages';
import { recordingMessages } from '../recording/recording-messages';

type Active = { id: string; show_transcription: boolean };
export type ActiveStatus = { settled: boolean; active: Active | undefined; clear: () => void };

/** How long home waits for the answer before drawing itself anyway (a stalled connection must not hide it). */
const SETTLE_WITHIN_MS = 2500;

/**
 * Whether a consultation is left running, asked once when home opens. `settled` once the server answered (or could
 * not, or took longer than SETTLE_WITHIN_MS): home waits for it before drawing its content, so that the notice
 * almost never appears above a button being tapped, and never keeps the clinician from starting offline.
 */
export function useActiveStatus(): ActiveStatus {
  const [state, setState] = useState<{ settled: boolean; active?: Active }>(() => ({ settled: typeof navigator !== 'undefined' && !navigator.onLine }));
  useEffect(() => {
    let current = true;
    const late = setTimeout(() => setState((s) => (s.settled ? s : { settled: true })), SETTLE_WITHIN_MS);
    consultationsApi.activeStatus().then(
      (s) => current && setState({ settled: true, active: s.active && s.id ? { id: s.id, show_transcription: s.show_transcription ?? false } : undefined }),
      () => current && setState({ settled: true }),
    );
    return () => {
      current = false;
      clearTimeout(late);
    };
  }, []);
  return { settled: state.settled, active: state.active, clear: () => setState({ settled: true }) };
}

/**
 * Spec §2 home "active-session popup": a consultation left running (another tab, a closed window) is offered
 * back, or ended, before a new one is started.
 */
export function ActiveSessionNotice({ status }: { status: ActiveStatus }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const v2Home = useAtomValue(authAtom)?.user?.v2_home ?? false;
  const [error, setError] = useState<string>();
  const { active } = status;
  if (!active) return null;

  async function end() {
    const ok = await confirm({
      type: 'warning',
      title: t`End the consultation in progress?`,
      message: t`What was recorded is kept and transcribed.`,
      confirmLabel: t`End it`,
    });
    if (!ok) return;
    try {
      await consultationsApi.finish(active!.id);
      status.clear();
    } catch (err) {
      setError(describeFailure(i18n, err, recordingMessages.finishFailed));
    }
  }

  return (
    <section className="alert active-notice" data-tone="warning" aria-label={t`Consultation in progress`}>
      <p>
        <Trans>A consultation is in progress.</Trans>
      </p>
      {error && <p className="field-error">{error}</p>}
      <div className="form-actions">
        <Button onClick={() => void navigate({ to: consultationPathFor(active, v2Home, '') ?? '/' })}>
          <Trans>Go back to it</Trans>
        </Button>
        <Button variant="secondary" onClick={() => void end()}>
          <Trans>End it</Trans>
        </Button>
      </div>
    </section>
  );
}
