import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { consultationsApi } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { nextOrderFor, saveChunk, StorageFullError } from '../../offline/chunk-queue';
import { appDb } from '../../offline/db';
import { finishWaiting, queueFinish, waitForFinishSent } from '../../offline/session-ops';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { SelectField } from '../../ui/SelectField';
import { isMobileDevice } from '../pairing/ActiveSessionFollower';
import { formatElapsed } from './format-duration';
import { isTeleconsultationSupported, listMicrophones, MicrophoneError, openMicrophone, openTeleconsultation } from './microphone';
import { PartRecorder, type RecorderState } from './part-recorder';
import { MICROPHONE_STORAGE_KEY } from './level-meter';
import { microphoneMessages, recordingMessages } from './recording-messages';
import { kickUploads } from './upload-service';
import { useUploadState } from './useUploadState';

type Mode = 'microphone' | 'teleconsultation';

/** How long the finish button waits for the server's confirmation before saying it will be sent later. */
const FINISH_CONFIRM_WAIT_MS = 4000;

export function RecordingPanel({
  sessionId,
  active,
  recordedMs = 0,
  onFinished,
}: {
  sessionId: string;
  active: boolean;
  /** Time recorded so far as far as this device knows (the server's figure, or this device's own). */
  recordedMs?: number;
  onFinished: () => void;
}) {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const userId = user?.id;
  const [state, setState] = useState<RecorderState>('idle');
  const [level, setLevel] = useState(0);
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState<string>();
  // The home's "record with" choice (the account's consultation_mode) picks the starting source.
  const [mode, setMode] = useState<Mode>(user?.consultation_mode === 'teleconsultation' && isTeleconsultationSupported() ? 'teleconsultation' : 'microphone');
  const [mics, setMics] = useState<{ deviceId: string; label: string }[]>([]);
  const [micId, setMicId] = useState(() => localStorage.getItem(MICROPHONE_STORAGE_KEY) ?? '');
  const [finishing, setFinishing] = useState(false);
  const recorder = useRef<PartRecorder | undefined>(undefined);
  const release = useRef<(() => void) | undefined>(undefined);
  const { queue, trouble } = useUploadState(sessionId);
  const queuedFinish = useLiveQuery(() => finishWaiting(sessionId), [sessionId]);
  // Before this page records, the timer shows what was recorded before (a reload, another device).
  const shownElapsed = recorder.current ? elapsed : Math.max(elapsed, recordedMs);

  useEffect(() => {
    void listMicrophones().then(setMics);
  }, [state]);

  useEffect(() => {
    if (state !== 'recording') return;
    const timer = setInterval(() => setElapsed(recorder.current?.elapsedMs ?? 0), 250);
    return () => clearInterval(timer);
  }, [state]);

  // Leaving the page mid-recording: the saved parts are safe, but warn before the recording stops.
  useEffect(() => {
    if (state !== 'recording' && state !== 'paused') return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [state]);

  useEffect(
    () => () => {
      void recorder.current?.stop();
      release.current?.();
    },
    [],
  );

  async function start() {
    setError(undefined);
    if (!userId) return;
    try {
      let stream: MediaStream;
      if (mode === 'teleconsultation') {
        const tele = await openTeleconsultation(micId || undefined);
        stream = tele.stream;
        release.current = tele.release;
      } else {
        stream = await openMicrophone(micId || undefined);
        release.current = () => stream.getTracks().forEach((track) => track.stop());
      }
      // Ask the browser not to evict our storage under pressure: it may hold unsent audio.
      void navigator.storage?.persist?.();
      const rec = new PartRecorder({
        stream,
        firstOrder: await nextOrderFor(sessionId),
        initialElapsedMs: Math.max(elapsed, recordedMs),
        savePart: async ({ complete, ...part }) => {
          await saveChunk({ ...part, userId, sessionId }, undefined, complete ? 'pending' : 'recording');
          if (complete) kickUploads();
          // So the timer continues from here after a reload, even before the server has measured the parts.
          const soFar = recorder.current?.elapsedMs;
          if (soFar !== undefined) await appDb().sessions.update(sessionId, { recorded_ms: Math.round(soFar) }).catch(() => undefined);
        },
        onLevel: setLevel,
        onStateChange: setState,
        onSaveError: (err) => setError(i18n._(err instanceof StorageFullError ? recordingMessages.storageFull : recordingMessages.sendFailed)),
      });
      recorder.current = rec;
      rec.start();
      const micsInfo = stream.getAudioTracks().map((track) => ({ label: track.label, settings: track.getSettings() }));
      consultationsApi.recording(sessionId, mode === 'teleconsultation' ? 'web-teleconsultation' : 'web', micsInfo).catch(() => undefined);
    } catch (err) {
      setError(i18n._(err instanceof MicrophoneError ? microphoneMessages[err.failure] : microphoneMessages.start));
    }
  }

  function pause() {
    recorder.current?.pause();
    consultationsApi.pause(sessionId).catch(() => undefined);
  }

  function resume() {
    recorder.current?.resume();
    consultationsApi.resume(sessionId).catch(() => undefined);
  }

  async function finish() {
    if (!userId) return;
    const ok = await confirm({
      type: 'warning',
      title: t`Finish this consultation?`,
      message: t`Recording stops and the documents are written from what was recorded. You cannot record more in this consultation.`,
      confirmLabel: t`Finish consultation`,
      cancelLabel: t`Keep going`,
    });
    if (!ok) return;
    setFinishing(true);
    setError(undefined);
    const rec = recorder.current;
    // Every part, the last one included, is in IndexedDB before the finish is queued behind them.
    await rec?.stop();
    if (rec) setElapsed(rec.elapsedMs);
    release.current?.();
    recorder.current = undefined;
    try {
      const nothingRecorded = (rec?.elapsedMs ?? 0) === 0 && (await nextOrderFor(sessionId)) === 0;
      await queueFinish({ userId, sessionId });
      kickUploads();
      await waitForFinishSent(sessionId, FINISH_CONFIRM_WAIT_MS);
      if (nothingRecorded) setError(i18n._(recordingMessages.noAudio));
      onFinished();
    } catch (err) {
      setError(i18n._(err instanceof StorageFullError ? recordingMessages.storageFull : recordingMessages.finishFailed));
    } finally {
      setFinishing(false);
    }
  }

  const recording = state === 'recording' || state === 'paused';
  const teleSupported = isTeleconsultationSupported();
  return (
    <section className="card recording-panel" aria-labelledby="recording-title">
      <h2 id="recording-title">
        <Trans>Recording</Trans>
      </h2>
      {error && <Alert tone="error">{error}</Alert>}
      {active && !recording && (
        <div className="recording-options">
          <SelectField
            label={t`Audio source`}
            value={mode}
            onChange={(e) => setMode(e.target.value as Mode)}
            options={[
              { value: 'microphone', label: isMobileDevice() ? t`This phone's microphone` : t`This computer's microphone` },
              { value: 'teleconsultation', label: teleSupported ? t`Teleconsultation: my microphone and the call's tab` : t`Teleconsultation (Chrome, Edge or Opera only)` },
            ]}
          />
          {mics.length > 1 && (
            <SelectField
              label={t`Microphone`}
              value={micId}
              onChange={(e) => {
                setMicId(e.target.value);
                localStorage.setItem(MICROPHONE_STORAGE_KEY, e.target.value);
              }}
              options={[{ value: '', label: t`Default microphone` }, ...mics.map((m) => ({ value: m.deviceId, label: m.label }))]}
            />
          )}
        </div>
      )}
      <div className="recording-status" aria-live="polite">
        <span className="recording-dot" data-state={state} aria-hidden="true" />
        <span className="recording-elapsed" aria-label={t`Time recorded`} data-elapsed-ms={Math.round(shownElapsed)}>
          {formatElapsed(shownElapsed)}
        </span>
        <meter className="level-meter" min={0} max={1} low={0.05} high={0.8} optimum={0.4} value={level} aria-label={t`Microphone level`} />
        <span className="muted">
          {state === 'recording' ? <Trans>Recording</Trans> : state === 'paused' ? <Trans>Paused</Trans> : active ? <Trans>Ready</Trans> : <Trans>Finished</Trans>}
        </span>
      </div>
      <div className="recording-actions">
        {active && !recording && (
          <Button onClick={start}>
            {elapsed > 0 || queue.waiting > 0 ? <Trans>Continue recording</Trans> : <Trans>Start recording</Trans>}
          </Button>
        )}
        {state === 'recording' && (
          <Button variant="secondary" onClick={pause}>
            <Trans>Pause</Trans>
          </Button>
        )}
        {state === 'paused' && (
          <Button variant="secondary" onClick={resume}>
            <Trans>Resume</Trans>
          </Button>
        )}
        {active && (
          <Button variant={recording ? 'danger' : 'secondary'} onClick={finish} busy={finishing}>
            <Trans>Finish consultation</Trans>
          </Button>
        )}
      </div>
      <p className="upload-state" role="status">
        {queue.waiting > 0 ? (
          <Plural value={queue.waiting} one="# part waiting — saved on this device" other="# parts waiting — saved on this device" />
        ) : (
          <Trans>Everything recorded has reached the server.</Trans>
        )}
      </p>
      {queuedFinish && queuedFinish.status !== 'failed' && !finishing && (
        <Alert tone="info">
          <Trans>The end of this consultation is saved on this device and will be sent when the connection returns; the documents are written then.</Trans>
        </Alert>
      )}
      {queuedFinish?.status === 'failed' && <Alert tone="error">{i18n._(recordingMessages.finishFailed)}</Alert>}
      {queue.failed > 0 && <Alert tone="error">{i18n._(recordingMessages.sendFailed)}</Alert>}
      {trouble && <Alert tone="warning">{i18n._(trouble === 'overloaded' ? recordingMessages.overloaded : recordingMessages.offline)}</Alert>}
    </section>
  );
}
