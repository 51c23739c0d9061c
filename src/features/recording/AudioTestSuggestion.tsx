import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { consultationsApi } from '../../api/consultations';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { AudioTest } from './AudioTest';
import { audioTestSettled, rememberAudioTest } from './audio-test-suggestion';

/**
 * A clinician's first consultation (no finished one yet) suggests the audio test before recording, calmly and once:
 * the test opens in a dialog, so the consultation's screen stays where it is. With no answer from the server
 * nothing is suggested.
 */
export function AudioTestSuggestion({ sessionId }: { sessionId: string }) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  const [testing, setTesting] = useState(false);

  useEffect(() => {
    if (audioTestSettled()) return;
    let current = true;
    consultationsApi.recent().then(
      ({ consultation_sessions: earlier }) => {
        if (!current) return;
        if (earlier.some((s) => s.id !== sessionId)) rememberAudioTest('not_first');
        else setShown(true);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [sessionId]);

  if (!shown) return null;
  return (
    <section className="alert audio-test-suggestion" data-tone="info" aria-label={t`Audio test`}>
      <p>
        <Trans>Your first consultation: check the microphone with the audio test before recording. It takes a minute.</Trans>
      </p>
      <div className="form-actions">
        <Button variant="secondary" onClick={() => setTesting(true)}>
          <Trans>Test the microphone</Trans>
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            rememberAudioTest('dismissed');
            setShown(false);
          }}
        >
          <Trans>Dismiss</Trans>
        </Button>
      </div>
      <Dialog
        open={testing}
        onOpenChange={(open) => {
          setTesting(open);
          // Done (or given up): either way it is not suggested again once the test was done.
          if (!open && audioTestSettled()) setShown(false);
        }}
        title={<Trans>Audio test</Trans>}
      >
        <AudioTest inDialog />
      </Dialog>
    </section>
  );
}
