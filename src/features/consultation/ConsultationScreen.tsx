import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useBlocker } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { finishWaiting, startWaiting } from '../../offline/session-ops';
import { confirm } from '../../ui/confirm';
import { consultationsApi, type ConsultationTypeView } from '../../api/consultations';
import { Alert } from '../../ui/Alert';
import { useDrawnInBackground } from '../../ui/use-drawn-in-background';
import { useDocumentTitle } from '../../ui/use-document-title';
import { RecordingPanel } from '../recording/RecordingPanel';
import { recordingMessages } from '../recording/recording-messages';
import { Button } from '../../ui/Button';
import { FeedbackDialog } from './FeedbackDialog';
import { NotesDataForm } from './NotesDataForm';
import { PatientLabelField } from './PatientLabelField';
import { ConsultationLanguageField } from './ConsultationLanguageField';
import { TranscriptQuality } from './TranscriptQuality';
import { TranscriptPanel } from './TranscriptPanel';
import { isGone, type SessionLoadProblem } from './session-load-problem';
import { useConsultationSession } from './useConsultationSession';
import { cachedTypes } from '../home/useConsultationTypes';

/**
 * The documents (and the markdown renderer they need, a third of the screen's code) load once a consultation has
 * ended: a consultation being recorded never waits for them. The service worker keeps their code for offline use;
 * where it cannot arrive (a first visit that lost its connection) the screen says so and the rest keeps working.
 */
const DocumentsPanel = lazy(() =>
  import('../documents/DocumentsPanel').then(
    (m) => ({ default: m.DocumentsPanel }),
    () => ({ default: DocumentsUnavailable }),
  ),
);

export type ConsultationVariant = 'consultation' | 'consultation_v2' | 'dictaphone';

/**
 * One consultation: recording controls, upload state and the transcript (live in the dictaphone variant). Past
 * its retention window with its text kept it is read-only: transcript, documents and versions, copy and export.
 */
export function ConsultationScreen({ id, variant }: { id: string; variant: ConsultationVariant }) {
  const { i18n, t } = useLingui();
  const { session: latest, problem, refresh } = useConsultationSession(id);
  const session = useDrawnInBackground(latest);
  // What this device still has to tell the server about the consultation (kept apart from the cached copy).
  const queuedStart = useLiveQuery(() => startWaiting(id), [id]);
  const queuedFinish = useLiveQuery(() => finishWaiting(id), [id]);
  const [typeLoaded, setType] = useState<ConsultationTypeView>();
  // The documents and the notes' data it brings.
  const type = useDrawnInBackground(typeLoaded);
  const [typeFailed, setTypeFailed] = useState(false);
  const [engineNote, setEngineNote] = useState<string>();
  const [speechLanguages, setSpeechLanguages] = useState<string[]>();
  const [usesAi, setUsesAi] = useState(true);
  const [rating, setRating] = useState(false);
  // Several consultations open in tabs are told apart by their patient label, else by their kind.
  useDocumentTitle(session?.patient_label || type?.name || t`Consultation`);

  // Spec §2: leaving a consultation without generated documents warns that the chance to generate them is lost.
  const hasDocument = useRef(false);
  // Nothing can be generated any more in an archived or deleted consultation: no warning on leaving it.
  const nothingToLose = useRef(false);
  nothingToLose.current = latest?.read_only === true || isGone(problem);
  const onWritten = useCallback(() => {
    hasDocument.current = true;
  }, []);
  useBlocker({
    enableBeforeUnload: false,
    shouldBlockFn: async ({ next }) => {
      if (hasDocument.current || nothingToLose.current || next.pathname === '/login') return false;
      const leave = await confirm({
        type: 'warning',
        title: t`Leave without documents?`,
        message: t`No document has been generated for this consultation. If you leave now, the chance to generate them is lost.`,
        confirmLabel: t`Leave`,
        cancelLabel: t`Stay`,
      });
      return !leave;
    },
  });

  useEffect(() => {
    if (!latest?.consultation_type_id) return;
    const typeId = latest.consultation_type_id;
    // With no network, the type as last seen on this device.
    consultationsApi.type(typeId).then(
      (r) => {
        setType(r.consultation_type);
        setTypeFailed(false);
      },
      () => {
        const kept = cachedTypes(i18n.locale)?.find((ty) => ty.id === typeId);
        setType((seen) => seen ?? kept);
        // Neither the server nor this device has it: the documents and the notes' data cannot be shown (said below).
        setTypeFailed(!kept);
      },
    );
    // Asked again in the new language when the clinician switches it.
  }, [latest?.consultation_type_id, i18n.locale]);

  useEffect(() => {
    consultationsApi.capabilities().then(
      (c) => {
        setEngineNote(c.transcription.engine === 'local' ? i18n._(localEngineNote) : undefined);
        setSpeechLanguages(c.transcription.languages);
        setUsesAi(c.generation.usesAi);
      },
      () => undefined,
    );
  }, [i18n]);

  if (!session) {
    if (isGone(problem)) return <GoneNotice deleted={problem === 'deleted'} />;
    return problem ? (
      <Alert tone="error">
        {i18n._(problem === 'offline' ? connectionLost : problem === 'overloaded' ? recordingMessages.overloaded : recordingMessages.loadFailed)}
      </Alert>
    ) : (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  }
  // Finished on this device: no more recording here, even while the finish still waits to reach the server.
  const active = session.status === 'active' && !queuedFinish;
  const readOnly = session.read_only === true;
  return (
    <div className="consultation" data-variant={variant} data-read-only={readOnly || undefined}>
      <div className="consultation-header">
        <h1>{type?.name ?? <Trans>Consultation</Trans>}</h1>
        {!active && !readOnly && (
          <Button variant="secondary" onClick={() => setRating(true)}>
            <Trans>Rate this consultation</Trans>
          </Button>
        )}
      </div>
      <PatientLabelField sessionId={id} label={session.patient_label} readOnly={readOnly} />
      <ConsultationLanguageField
        sessionId={id}
        language={session.language}
        speechLanguages={readOnly ? undefined : speechLanguages}
        readOnly={readOnly}
        onChanged={() => void refresh()}
      />
      {readOnly && <ArchivedNotice audioDeletedAt={session.audio_deleted_at ?? session.expires_at} />}
      {problem && <Alert tone="warning">{i18n._(refreshProblem(problem, readOnly))}</Alert>}
      {queuedStart && queuedStart.status !== 'failed' && (
        <Alert tone="info">
          <Trans>Started on this device without a connection: everything is saved here and sent when the connection returns.</Trans>
        </Alert>
      )}
      {queuedStart?.status === 'failed' && (
        <Alert tone="error">
          <Trans>
            The server refused to create this consultation. Its recording is kept on this device; contact support before clearing this browser's data.
          </Trans>
        </Alert>
      )}
      {!readOnly && (
        <RecordingPanel
          sessionId={id}
          active={active}
          recordedMs={session.recorded_ms}
          recorder={session.recorder}
          awaited={session.status === 'finished' ? session.awaited : null}
          neverArrived={
            session.status === 'finished' && !session.awaited && session.expected_parts != null && (session.parts_stored ?? 0) < session.expected_parts
          }
          consent={session.consent}
          patientLanguage={session.language}
          onFinished={() => void refresh()}
        />
      )}
      {!type && typeFailed && (
        <Alert tone="warning">
          <Trans>
            This consultation type could not be loaded, so its documents and data fields are not shown. The recording is not affected; reload the page when the
            connection is back.
          </Trans>
        </Alert>
      )}
      {session.status !== 'active' && type && (
        <TranscriptQuality transcript={session.transcription} engines={session.transcription_engines} place="documents" />
      )}
      {session.status !== 'active' && type && (
        <Suspense
          fallback={
            <p role="status">
              <Trans>Loading…</Trans>
            </p>
          }
        >
          <DocumentsPanel
            sessionId={id}
            type={type}
            usesAi={usesAi}
            readOnly={readOnly}
            patientLabel={session.patient_label}
            waitingForParts={session.status === 'finished' && !!session.awaited}
            onWritten={onWritten}
          />
        </Suspense>
      )}
      <TranscriptPanel
        session={session}
        speechLanguages={speechLanguages}
        engineNote={readOnly ? undefined : engineNote}
        live={variant === 'dictaphone'}
        readOnly={readOnly}
      />
      {type && !readOnly && <NotesDataForm session={session} type={type} />}
      {rating && <FeedbackDialog sessionId={id} open onOpenChange={setRating} />}
    </div>
  );
}

function DocumentsUnavailable() {
  return (
    <Alert tone="warning">
      <Trans>
        The documents could not be loaded: the connection was lost. The transcript and the recording are not affected; reload the page when the connection is
        back.
      </Trans>
    </Alert>
  );
}

/** The text is kept, the audio is not: say when it went and that nothing can change. */
function ArchivedNotice({ audioDeletedAt }: { audioDeletedAt: string | null }) {
  const { i18n } = useLingui();
  if (!audioDeletedAt) {
    return (
      <Alert tone="info">
        <Trans>The audio of this consultation was deleted after the retention period. It is kept as text only and cannot be changed.</Trans>
      </Alert>
    );
  }
  const date = i18n.date(audioDeletedAt, { dateStyle: 'long' });
  return (
    <Alert tone="info">
      <Trans>Audio deleted on {date}. This consultation is kept as text only and cannot be changed.</Trans>
    </Alert>
  );
}

/** The server answered that this consultation is not there: say so, never "connection problems". */
function GoneNotice({ deleted }: { deleted: boolean }) {
  return (
    <div className="consultation">
      <h1>
        <Trans>Consultation</Trans>
      </h1>
      <Alert tone="info">
        {deleted ? (
          <Trans>This consultation was deleted after the retention period.</Trans>
        ) : (
          <Trans>This consultation does not exist. It may have been deleted after the retention period.</Trans>
        )}
      </Alert>
      <p>
        <Link to="/">
          <Trans>Back to consultations</Trans>
        </Link>
      </p>
    </div>
  );
}

/** With the cached copy on screen: why it may be out of date. */
function refreshProblem(problem: SessionLoadProblem, readOnly: boolean) {
  if (problem === 'offline') return readOnly ? connectionLost : recordingMessages.offline;
  if (problem === 'overloaded') return recordingMessages.overloaded;
  return recordingMessages.loadFailed;
}

const connectionLost = msg`Connection problems: the server cannot be reached. Check your internet connection.`;
const localEngineNote = msg`Transcribed on this server by the local speech engine: English only, with modest accuracy. Check the text before you use it.`;
