import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { consultationsApi, type RecorderView } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { nextOrderFor, saveChunk, StorageFullError } from '../../offline/chunk-queue';
import { appDb } from '../../offline/db';
import { finishWaiting, queueFinish, startWaiting, waitForFinishSent } from '../../offline/session-ops';
import { ApiFailureError } from '../../api/client';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { SelectField } from '../../ui/SelectField';
import { describeFailure } from '../i18n/api-error-messages';
import { isMobileDevice } from '../pairing/ActiveSessionFollower';
import { formatElapsed } from './format-duration';
import type { AwaitedOnDevice } from './awaited-parts';
import { AwaitedPartsNotice } from './AwaitedPartsNotice';
import { isTeleconsultationSupported, listMicrophones, MicrophoneError, openMicrophone, openTeleconsultation } from './microphone';
import { PartRecorder, type RecorderState } from './part-recorder';
import { MICROPHONE_STORAGE_KEY } from './level-meter';
import { microphoneMessages, recordingMessages } from './recording-messages';
import { kickUploads } from './upload-service';
import { useUploadState } from './useUploadState';
import { claimRecording, holdRecordingLock, isRecordingInAnotherTab, takeOverRecording, type Claim } from './recording-claim';
import { AudioTestSuggestion } from './AudioTestSuggestion';
import {
  forgetRecording,
  markElapsed,
  markHidden,
  markLeft,
  markRecording,
  markShown,
  recordingInProgress,
  type StopCause,
  stopCause,
} from './interrupted-recording';
import { RecordingStoppedNotice } from './RecordingStoppedNotice';
import { ConsentDialog } from './ConsentDialog';
import { giveConsent, lastKnownRule, pendingConsent, rememberRule, sendPendingConsents } from './consent-store';
import type { ChannelLayout } from '../../../contract/speakers';
import type { ConsentView } from '../../../contract/consultations';

type Mode = 'microphone' | 'teleconsultation';

/** How long the finish button waits for the server's confirmation before saying it will be sent later. */
const FINISH_CONFIRM_WAIT_MS = 4000;
/** The recorder's heartbeat: well inside the server's 20-second lease. */
const HEARTBEAT_MS = 5000;

const platformFor = (mode: Mode) => (mode === 'teleconsultation' ? 'web-teleconsultation' : 'web');

export function RecordingPanel({
  sessionId,
  active,
  recordedMs = 0,
  recorder: recorderInfo,
  awaited,
  neverArrived = false,
  consent,
  patientLanguage,
  onFinished,
}: {
  sessionId: string;
  active: boolean;
  /** Time recorded so far as far as this device knows (the server's figure, or this device's own). */
  recordedMs?: number;
  /** Which device records the consultation, as the server last said. */
  recorder?: RecorderView;
  /** The parts the notes still wait for (on any device), as the server last said. */
  awaited?: AwaitedOnDevice | null;
  /** Parts the finish named never reached the server and the wait for them is over. */
  neverArrived?: boolean;
  /** The patient's consent to recording, as the server last said (absent for a consultation it does not know yet). */
  consent?: ConsentView;
  /** The language the patient reads the consent in first. */
  patientLanguage?: string | null;
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
  // Another device records: refused when trying to start here, or seen in the server's answer.
  const [elsewhere, setElsewhere] = useState(false);
  const [takingOver, setTakingOver] = useState(false);
  const [moved, setMoved] = useState(false);
  // The microphone has delivered silence for a while during this recording.
  const [silent, setSilent] = useState(false);
  // This device was recording when its last page went away (reload, crash, another screen): said until continued or dismissed.
  const [stopped, setStopped] = useState<{ elapsedMs: number; cause: StopCause }>();
  const recorder = useRef<PartRecorder | undefined>(undefined);
  const release = useRef<(() => void) | undefined>(undefined);
  const starting = useRef(false);
  const unlockTab = useRef<(() => void) | undefined>(undefined);
  const { queue, trouble } = useUploadState(sessionId);
  const queuedFinish = useLiveQuery(() => finishWaiting(sessionId), [sessionId]);
  // Before this page records, the timer shows what was recorded before (a reload, another device).
  const shownElapsed = recorder.current ? elapsed : Math.max(elapsed, recordedMs);

  // biome-ignore lint/correctness/useExhaustiveDependencies: state: listed again as recording starts or stops, since microphone names can only be read once the microphone is allowed.
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

  // What the page that comes next needs to say "recording stopped at …" if this one goes away mid-recording.
  useEffect(() => {
    if (!userId) return;
    const entry = recordingInProgress(sessionId, userId);
    if (!entry) return;
    let current = true;
    // Another tab of this browser still records it: nothing stopped.
    void isRecordingInAnotherTab(sessionId).then((elsewhere) => {
      if (current && !elsewhere && !recorder.current) setStopped({ elapsedMs: entry.elapsedMs, cause: stopCause(entry) });
    });
    return () => {
      current = false;
    };
  }, [sessionId, userId]);

  useEffect(() => {
    if (active) return;
    // Finished (here or elsewhere): there is nothing left to continue.
    forgetRecording(sessionId);
    setStopped(undefined);
  }, [active, sessionId]);

  useEffect(() => {
    if (state !== 'recording' && state !== 'paused') return;
    const hidden = () => markHidden(sessionId);
    const shown = (e: PageTransitionEvent) => {
      if (e.persisted) markShown(sessionId);
    };
    window.addEventListener('pagehide', hidden);
    window.addEventListener('pageshow', shown);
    return () => {
      window.removeEventListener('pagehide', hidden);
      window.removeEventListener('pageshow', shown);
    };
  }, [state, sessionId]);

  useEffect(
    () => () => {
      // Left for another screen of the app: the recorder stops with this one, and the consultation's screen says so.
      if (recorder.current) markLeft(sessionId);
      void recorder.current?.stop();
      release.current?.();
      unlockTab.current?.();
    },
    [sessionId],
  );

  useEffect(() => {
    if (recorderInfo === null) setElsewhere(false);
  }, [recorderInfo]);

  // While this device records, it keeps its claim alive and hands over when another device asked to record.
  // biome-ignore lint/correctness/useExhaustiveDependencies: stepAside and mode are read when the timer fires; restarting the timer for them is not needed.
  useEffect(() => {
    if (state !== 'recording' && state !== 'paused') return;
    const timer = setInterval(() => {
      void (async () => {
        const beat = await consultationsApi.recorderHeartbeat(sessionId, await nextOrderFor(sessionId)).catch(() => undefined);
        // No answer (offline): go on recording; the parts wait on this device.
        if (!beat || (beat.recording_here && !beat.handover_requested)) return;
        if (!beat.recording_here) {
          // Started with no network, or lapsed while offline: claim it now. Only another device recording, or the
          // consultation ended elsewhere, stops this recorder; a passing error does not.
          let ended = false;
          const claim = await claimRecording(sessionId, platformFor(mode), { mobile: isMobileDevice() }).catch((err: unknown) => {
            ended = err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.code === 'session_finished';
            return undefined;
          });
          if (!ended && (claim === undefined || claim.outcome === 'granted' || claim.outcome === 'unknown')) return;
        }
        await stepAside();
      })();
    }, HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [state, sessionId]);

  /**
   * Another device records now (or the consultation ended elsewhere): stop here, keep every part, and let go with
   * the final count, so the next recorder continues after it and the notes wait for those parts.
   */
  async function stepAside() {
    const rec = recorder.current;
    if (!rec) return;
    recorder.current = undefined;
    await rec.stop();
    release.current?.();
    unlockTab.current?.();
    setElapsed(rec.elapsedMs);
    forgetRecording(sessionId);
    setSilent(false);
    kickUploads();
    await consultationsApi.releaseRecording(sessionId, await nextOrderFor(sessionId)).catch(() => undefined);
    setMoved(true);
  }

  async function recordHere() {
    const ok = await confirm({
      type: 'warning',
      title: t`Record on this device instead?`,
      message: t`The other device stops recording and keeps what it recorded; the consultation continues here.`,
      confirmLabel: t`Record here`,
      cancelLabel: t`Cancel`,
    });
    if (!ok) return;
    setError(undefined);
    setTakingOver(true);
    try {
      const claim = await takeOverRecording(sessionId, platformFor(mode), isMobileDevice());
      if (claim.outcome === 'granted') {
        setElsewhere(false);
        await start(claim);
      } else {
        // Never record without the other device's count: both would number their parts alike. The request is
        // withdrawn, so the other device does not stop for nobody.
        void consultationsApi.releaseRecording(sessionId, 0).catch(() => undefined);
        setError(i18n._(claim.outcome === 'unknown' ? recordingMessages.offline : recordingMessages.handoverTimeout));
      }
    } catch (err) {
      setError(describeFailure(i18n, err, microphoneMessages.start));
    } finally {
      setTakingOver(false);
    }
  }

  // The organization's consent rule: the consultation's own, or the last one seen for one the server does not know yet.
  const consentRule = consent?.required ?? (userId ? lastKnownRule(userId) : 'off');
  useEffect(() => {
    if (userId && consent) rememberRule(userId, consent.required);
  }, [userId, consent]);
  // Consents given offline go once the connection is back.
  useEffect(() => {
    void sendPendingConsents();
    const send = () => void sendPendingConsents();
    window.addEventListener('online', send);
    return () => window.removeEventListener('online', send);
  }, []);
  const [askingConsent, setAskingConsent] = useState(false);
  const [declined, setDeclined] = useState(false);
  const needsConsent = () => consentRule !== 'off' && !consent?.given_at && !pendingConsent(sessionId);

  async function answerConsent(agreed: boolean) {
    setAskingConsent(false);
    setDeclined(!agreed);
    if (!agreed || consentRule === 'off') return;
    // Kept on this device first: the recording never waits for the server, and the consent reaches it in any case.
    await giveConsent(sessionId, consentRule);
    await start(undefined, true);
  }

  /** `consented`: the patient has just agreed (the consultation's cached state may not say so yet). */
  async function start(granted?: Claim, consented = false) {
    // One recorder per page: a second tap while the first start waits for the server or the microphone is ignored.
    if (!userId || starting.current || recorder.current) return;
    // Before the first part: the patient's consent, when the organization asks for it.
    if (!granted && !consented && needsConsent()) {
      setAskingConsent(true);
      return;
    }
    setDeclined(false);
    starting.current = true;
    try {
      await startRecorder(granted);
    } finally {
      starting.current = false;
    }
  }

  async function startRecorder(granted?: Claim) {
    setError(undefined);
    setMoved(false);
    if (!userId) return;
    const platform = platformFor(mode);
    const mobile = isMobileDevice();
    let claim: Claim;
    try {
      // A consultation the server does not know yet (started offline) cannot be claimed: it records here.
      claim = granted ?? ((await startWaiting(sessionId)) ? { outcome: 'unknown' } : await claimRecording(sessionId, platform, { mobile }));
    } catch (err) {
      setError(describeFailure(i18n, err, microphoneMessages.start));
      return;
    }
    if (claim.outcome === 'elsewhere' || claim.outcome === 'waiting') {
      setElsewhere(true);
      return;
    }
    const unlock = await holdRecordingLock(sessionId);
    if (!unlock) {
      setError(i18n._(recordingMessages.otherTab));
      return;
    }
    unlockTab.current = unlock;
    try {
      let stream: MediaStream;
      let channelLayout: ChannelLayout | undefined;
      if (mode === 'teleconsultation') {
        const tele = await openTeleconsultation(micId || undefined);
        stream = tele.stream;
        channelLayout = tele.channelLayout;
        release.current = tele.release;
      } else {
        stream = await openMicrophone(micId || undefined);
        release.current = () => stream.getTracks().forEach((track) => track.stop());
      }
      // Ask the browser not to evict our storage under pressure: it may hold unsent audio.
      void navigator.storage?.persist?.();
      const rec = new PartRecorder({
        stream,
        channelLayout,
        // After a handover, from where the other device stopped.
        firstOrder: Math.max(await nextOrderFor(sessionId), claim.outcome === 'granted' ? claim.nextOrder : 0),
        initialElapsedMs: Math.max(elapsed, recordedMs),
        savePart: async ({ complete, ...part }) => {
          await saveChunk({ ...part, userId, sessionId }, undefined, complete ? 'pending' : 'recording');
          if (complete) kickUploads();
          // So the timer continues from here after a reload, even before the server has measured the parts.
          const soFar = recorder.current?.elapsedMs;
          if (soFar !== undefined) markElapsed(sessionId, soFar);
          if (soFar !== undefined)
            await appDb()
              .sessions.update(sessionId, { recorded_ms: Math.round(soFar) })
              .catch(() => undefined);
        },
        onLevel: setLevel,
        onSilence: setSilent,
        onStateChange: setState,
        onSaveError: (err) => setError(i18n._(err instanceof StorageFullError ? recordingMessages.storageFull : recordingMessages.sendFailed)),
      });
      recorder.current = rec;
      rec.start();
      // The timer goes on from the time recorded before, never showing 0:00 until its first tick.
      setElapsed(rec.elapsedMs);
      markRecording(sessionId, userId, rec.elapsedMs);
      setStopped(undefined);
      const micsInfo = stream.getAudioTracks().map((track) => ({ label: track.label, settings: track.getSettings() }));
      void claimRecording(sessionId, platform, { mobile, micsInfo }).catch(() => undefined);
    } catch (err) {
      unlockTab.current?.();
      // Not recording after all: another device may record at once.
      if (claim.outcome === 'granted')
        void nextOrderFor(sessionId)
          .then((n) => consultationsApi.releaseRecording(sessionId, n))
          .catch(() => undefined);
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
    forgetRecording(sessionId);
    setStopped(undefined);
    setSilent(false);
    release.current?.();
    unlockTab.current?.();
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
  const otherRecorder = !recording && active && ((recorderInfo != null && !recorderInfo.this_device) || elsewhere);
  const canStart = active && !recording && !otherRecorder;
  // In place of the start button while shown: one "Continue recording" on the screen, in the notice that says why.
  const stoppedNotice = canStart && stopped !== undefined;
  const teleSupported = isTeleconsultationSupported();
  return (
    <section className="card recording-panel" aria-labelledby="recording-title">
      <h2 id="recording-title">
        <Trans>Recording</Trans>
      </h2>
      {error && <Alert tone="error">{error}</Alert>}
      {declined && (
        <Alert tone="info">
          <Trans>Not recorded: the patient did not agree to the recording. Nothing was recorded; you can write the notes by hand.</Trans>
        </Alert>
      )}
      {askingConsent && consentRule !== 'off' && (
        <ConsentDialog open method={consentRule} patientLanguage={patientLanguage} onAnswer={(agreed) => void answerConsent(agreed)} />
      )}

      {moved && !recording && (
        <Alert tone="info">
          <Trans>Recording continues on your other device. What was recorded here is kept and sent.</Trans>
        </Alert>
      )}
      {stoppedNotice && (
        <RecordingStoppedNotice
          elapsedMs={stopped.elapsedMs}
          cause={stopped.cause}
          onContinue={() => void start()}
          onDismiss={() => {
            forgetRecording(sessionId);
            setStopped(undefined);
          }}
        />
      )}
      {canStart && !stoppedNotice && shownElapsed === 0 && queue.waiting === 0 && <AudioTestSuggestion sessionId={sessionId} />}
      {state === 'recording' && silent && (
        <Alert tone="warning" urgent>
          <Trans>No sound has reached the microphone for 10 seconds. Check that it is connected and not muted. Recording goes on.</Trans>
        </Alert>
      )}
      {canStart && (
        <div className="recording-options">
          <SelectField
            label={t`Audio source`}
            value={mode}
            onChange={(e) => setMode(e.target.value as Mode)}
            options={[
              { value: 'microphone', label: isMobileDevice() ? t`This phone's microphone` : t`This computer's microphone` },
              {
                value: 'teleconsultation',
                label: teleSupported ? t`Teleconsultation: my microphone and the call's tab` : t`Teleconsultation (Chrome, Edge or Opera only)`,
              },
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
        <span role="timer" aria-live="off" className="recording-elapsed" aria-label={t`Time recorded`} data-elapsed-ms={Math.round(shownElapsed)}>
          {formatElapsed(shownElapsed)}
        </span>
        <meter className="level-meter" min={0} max={1} low={0.05} high={0.8} optimum={0.4} value={level} aria-label={t`Microphone level`} />
        <span className="muted">
          {state === 'recording' ? (
            <Trans>Recording</Trans>
          ) : state === 'paused' ? (
            <Trans>Paused</Trans>
          ) : otherRecorder ? (
            recorderInfo?.mobile ? (
              <Trans>Recording on your phone</Trans>
            ) : (
              <Trans>Recording on another device</Trans>
            )
          ) : active ? (
            <Trans>Ready</Trans>
          ) : (
            <Trans>Finished</Trans>
          )}
        </span>
      </div>
      <div className="recording-actions">
        {otherRecorder && (
          <Button onClick={() => void recordHere()} busy={takingOver}>
            <Trans>Record here instead</Trans>
          </Button>
        )}
        {canStart && !stoppedNotice && (
          <Button onClick={() => void start()}>
            {shownElapsed > 0 || queue.waiting > 0 ? <Trans>Continue recording</Trans> : <Trans>Start recording</Trans>}
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
      {otherRecorder && (
        <p className="muted">
          <Trans>The transcript appears here as it arrives.</Trans>
        </p>
      )}
      {/* "Everything has reached the server" only when the server says so too: a part may wait on another device. */}
      <p className="upload-state" role="status">
        {queue.waiting > 0 ? (
          <Plural value={queue.waiting} one="# part waiting — saved on this device" other="# parts waiting — saved on this device" />
        ) : awaited ? null : neverArrived ? (
          <Trans>Some recorded parts never reached the server: the documents mark where they are missing.</Trans>
        ) : (
          <Trans>Everything recorded has reached the server.</Trans>
        )}
      </p>
      {awaited && <AwaitedPartsNotice awaited={awaited} />}
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
