import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useBlocker } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { confirm } from '../../ui/confirm';
import { consultationsApi, type ConsultationTypeView } from '../../api/consultations';
import { Alert } from '../../ui/Alert';
import { RecordingPanel } from '../recording/RecordingPanel';
import { recordingMessages } from '../recording/recording-messages';
import { DocumentsPanel } from '../documents/DocumentsPanel';
import { Button } from '../../ui/Button';
import { FeedbackDialog } from './FeedbackDialog';
import { NotesDataForm } from './NotesDataForm';
import { TranscriptPanel } from './TranscriptPanel';
import { useConsultationSession } from './useConsultationSession';
import { cachedTypes } from '../home/useConsultationTypes';

export type ConsultationVariant = 'consultation' | 'consultation_v2' | 'dictaphone';

/** One consultation: recording controls, upload state and the transcript (live in the dictaphone variant). */
export function ConsultationScreen({ id, variant }: { id: string; variant: ConsultationVariant }) {
  const { i18n, t } = useLingui();
  const { session, loadFailed, refresh } = useConsultationSession(id);
  const [type, setType] = useState<ConsultationTypeView>();
  const [engineNote, setEngineNote] = useState<string>();
  const [usesAi, setUsesAi] = useState(true);
  const [rating, setRating] = useState(false);

  // Spec §2: leaving a consultation without generated documents warns that the chance to generate them is lost.
  const hasDocument = useRef(false);
  const onWritten = useCallback(() => {
    hasDocument.current = true;
  }, []);
  useBlocker({
    enableBeforeUnload: false,
    shouldBlockFn: async ({ next }) => {
      if (hasDocument.current || next.pathname === '/login') return false;
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
    if (!session?.consultation_type_id) return;
    const typeId = session.consultation_type_id;
    // With no network, the type as last seen on this device.
    consultationsApi.type(typeId).then(
      (r) => setType(r.consultation_type),
      () => setType((seen) => seen ?? cachedTypes(i18n.locale)?.find((ty) => ty.id === typeId)),
    );
    // Asked again in the new language when the clinician switches it.
  }, [session?.consultation_type_id, i18n.locale]);

  useEffect(() => {
    consultationsApi.capabilities().then(
      (c) => {
        setEngineNote(c.transcription.engine === 'local' ? i18n._(localEngineNote) : undefined);
        setUsesAi(c.generation.usesAi);
      },
      () => undefined,
    );
  }, [i18n]);

  if (!session) {
    return loadFailed ? <Alert tone="error">{i18n._(recordingMessages.loadFailed)}</Alert> : <p role="status"><Trans>Loading…</Trans></p>;
  }
  // Finished on this device: no more recording here, even while the finish still waits to reach the server.
  const active = session.status === 'active' && !session.finishQueued;
  return (
    <div className="consultation" data-variant={variant}>
      <div className="consultation-header">
        <h1>{type?.name ?? <Trans>Consultation</Trans>}</h1>
        {!active && (
          <Button variant="secondary" onClick={() => setRating(true)}>
            <Trans>Rate this consultation</Trans>
          </Button>
        )}
      </div>
      {loadFailed && <Alert tone="warning">{i18n._(recordingMessages.offline)}</Alert>}
      {session.localOnly && (
        <Alert tone="info">
          <Trans>Started on this device without a connection: everything is saved here and sent when the connection returns.</Trans>
        </Alert>
      )}
      <RecordingPanel sessionId={id} active={active} recordedMs={session.recorded_ms} onFinished={() => void refresh()} />
      {session.status !== 'active' && type && <DocumentsPanel sessionId={id} type={type} usesAi={usesAi} onWritten={onWritten} />}
      <TranscriptPanel session={session} engineNote={engineNote} live={variant === 'dictaphone'} />
      {type && <NotesDataForm session={session} type={type} />}
      {rating && <FeedbackDialog sessionId={id} open onOpenChange={setRating} />}
    </div>
  );
}

const localEngineNote = msg`Transcribed on this server by the local speech engine: English only, with modest accuracy. Check the text before you use it.`;
