import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/SelectField';
import { rememberAudioTest } from './audio-test-suggestion';
import { createLevelMeter, displayLevel, MICROPHONE_STORAGE_KEY } from './level-meter';
import { listMicrophones, MicrophoneError, openMicrophone } from './microphone';
import { microphoneMessages } from './recording-messages';

/**
 * The audio test (spec §2, 2 steps): choose the microphone, then speak and watch the level move. The choice is
 * the one recordings use. A settings section of its own, or the body of a dialog (`inDialog`, which has the title).
 */
export function AudioTest({ inDialog = false }: { /** Given to every settings section; the test needs none. */ userId?: string; inDialog?: boolean }) {
  const { i18n, t } = useLingui();
  const [step, setStep] = useState<1 | 2 | 'done'>(1);
  const [mics, setMics] = useState<{ deviceId: string; label: string }[]>([]);
  const [micId, setMicId] = useState(() => localStorage.getItem(MICROPHONE_STORAGE_KEY) ?? '');
  const [level, setLevel] = useState(0);
  const [heard, setHeard] = useState(false);
  const [error, setError] = useState<string>();
  const stop = useRef<(() => void) | undefined>(undefined);

  useEffect(() => {
    void listMicrophones().then(setMics);
    return () => stop.current?.();
  }, []);

  async function listen() {
    setError(undefined);
    try {
      const stream = await openMicrophone(micId || undefined);
      // With permission granted the browser now tells the microphones' names.
      setMics(await listMicrophones());
      const meter = createLevelMeter(stream);
      const timer = setInterval(() => {
        const value = displayLevel(meter.level());
        setLevel(value);
        if (value > 0.08) setHeard(true);
      }, 100);
      stop.current = () => {
        clearInterval(timer);
        void meter.close();
        stream.getTracks().forEach((track) => track.stop());
      };
      setStep(2);
    } catch (err) {
      setError(i18n._(err instanceof MicrophoneError ? microphoneMessages[err.failure] : microphoneMessages.start));
    }
  }

  function finish() {
    stop.current?.();
    localStorage.setItem(MICROPHONE_STORAGE_KEY, micId);
    rememberAudioTest('done');
    setStep('done');
  }

  const body = (
    <>
      {error && <Alert tone="error">{error}</Alert>}
      {step === 1 && (
        <>
          <p className="muted">
            <Trans>Step 1 of 2: choose the microphone to record with.</Trans>
          </p>
          <SelectField
            label={t`Microphone`}
            value={micId}
            onChange={(e) => setMicId(e.target.value)}
            options={[
              { value: '', label: t`Default microphone` },
              ...mics.filter((m) => m.deviceId && m.deviceId !== 'default').map((m) => ({ value: m.deviceId, label: m.label })),
            ]}
          />
          <Button onClick={listen}>
            <Trans>Next</Trans>
          </Button>
        </>
      )}
      {step === 2 && (
        <>
          <p className="muted">
            <Trans>Step 2 of 2: speak as you would in a consultation. The bar should move with your voice.</Trans>
          </p>
          <meter className="level-meter level-meter-large" min={0} max={1} low={0.05} high={0.8} optimum={0.4} value={level} aria-label={t`Microphone level`} />
          <p role="status">{heard ? <Trans>We can hear you.</Trans> : <Trans>Waiting for sound…</Trans>}</p>
          <div className="recording-actions">
            <Button onClick={finish} disabled={!heard}>
              <Trans>Use this microphone</Trans>
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                stop.current?.();
                setHeard(false);
                setStep(1);
              }}
            >
              <Trans>Back</Trans>
            </Button>
          </div>
        </>
      )}
      {step === 'done' && (
        <Alert tone="success">
          <Trans>Your microphone works and will be used for recordings on this device.</Trans>
        </Alert>
      )}
    </>
  );
  if (inDialog) return body;
  return (
    <section className="card" aria-labelledby="audio-test-title">
      <h2 id="audio-test-title">
        <Trans>Audio test</Trans>
      </h2>
      {body}
    </section>
  );
}
