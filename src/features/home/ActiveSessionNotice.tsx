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

/**
 * Spec §2 home "active-session popup": a consultation left running (another tab, a closed window) is offered
 * back, or ended, before a new one is started.
 */
export function ActiveSessionNotice() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const v2Home = useAtomValue(authAtom)?.user?.v2_home ?? false;
  const [active, setActive] = useState<{ id: string; show_transcription: boolean }>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    consultationsApi.activeStatus().then((s) => setActive(s.active && s.id ? { id: s.id, show_transcription: s.show_transcription ?? false } : undefined), () => undefined);
  }, []);
  if (!active) return null;

  async function end() {
    const ok = await confirm({ type: 'warning', title: t`End the consultation in progress?`, message: t`What was recorded is kept and transcribed.`, confirmLabel: t`End it` });
    if (!ok) return;
    try {
      await consultationsApi.finish(active!.id);
      setActive(undefined);
    } catch (err) {
      setError(describeFailure(i18n, err, recordingMessages.finishFailed));
    }
  }

  return (
    <div className="alert active-notice" data-tone="warning" role="region" aria-label={t`Consultation in progress`}>
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
    </div>
  );
}
