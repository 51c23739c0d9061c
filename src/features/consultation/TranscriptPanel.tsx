import { Trans, useLingui } from '@lingui/react/macro';
import { useAtom, useAtomValue } from 'jotai';
import { authAtom } from '../../app-state';
import { effectiveLanguage } from './ConsultationLanguageField';
import { useEffect, useId, useState } from 'react';
import { consultationsApi } from '../../api/consultations';
import type { CachedSession } from '../../offline/db';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { evidenceHighlightAtom, highlightPieces } from '../documents/evidence-highlight';
import { recordingMessages } from '../recording/recording-messages';
import { hasUncertainWords } from '../../../contract/uncertain-words';
import { TranscriptText } from './TranscriptText';
import { TranscriptQuality } from './TranscriptQuality';

/** The transcript as it grows, readable and correctable by the clinician (only readable once archived). */
export function TranscriptPanel({
  session,
  engineNote,
  speechLanguages,
  live,
  readOnly = false,
}: {
  session: CachedSession;
  engineNote?: string;
  /** What this server's speech engine transcribes, when known. */
  speechLanguages?: string[];
  live: boolean;
  readOnly?: boolean;
}) {
  const { i18n } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const id = useId();
  const [highlight, setHighlight] = useAtom(evidenceHighlightAtom);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.transcription ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(session.transcription ?? '');
  }, [session.transcription, editing]);

  async function save() {
    setSaving(true);
    setError(undefined);
    try {
      await consultationsApi.saveTranscription(session.id, draft);
      setEditing(false);
    } catch {
      setError(i18n._(recordingMessages.saveTranscriptFailed));
    } finally {
      setSaving(false);
    }
  }

  const status = session.transcription_status;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Trans>Transcript</Trans>
      </h2>
      {engineNote && !session.transcription_engines?.length && <p className="muted">{engineNote}</p>}
      {session.transcription && <TranscriptQuality transcript={session.transcription} engines={session.transcription_engines} place="transcript" />}
      {status === 'unavailable' &&
        (speechLanguages?.length && !speechLanguages.includes(effectiveLanguage(session.language, user?.language)) ? (
          <Alert tone="warning">
            <Trans>
              Not transcribed: the speech engine on this server does not speak this consultation's language. The audio is kept and transcribed once an engine
              that does is connected, or if you change the language above.
            </Trans>
          </Alert>
        ) : (
          <Alert tone="warning">
            <Trans>No speech engine is available on this server, so this recording cannot be transcribed. The audio is kept.</Trans>
          </Alert>
        ))}
      {status === 'partial' && (
        <Alert tone="warning">
          <Trans>Some parts could not be transcribed; they are marked in the text.</Trans>
        </Alert>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      {session.transcription && hasUncertainWords(session.transcription) && (
        <p className="muted" data-testid="uncertain-legend">
          <Trans>
            Words underlined with dots were not heard clearly (in the text, between [ and ?]). They never go into the note's values or medicines: check them
            against the recording, then correct or confirm them by editing the transcript.
          </Trans>
        </p>
      )}
      {editing && !readOnly ? (
        <div className="field">
          <label htmlFor={`${id}-text`}>
            <Trans>Transcript text</Trans>
          </label>
          <textarea id={`${id}-text`} rows={10} value={draft} onChange={(e) => setDraft(e.target.value)} />
          <div className="recording-actions">
            <Button onClick={save} busy={saving}>
              <Trans>Save</Trans>
            </Button>
            <Button variant="secondary" onClick={() => setEditing(false)}>
              <Trans>Cancel</Trans>
            </Button>
          </div>
        </div>
      ) : (
        <>
          <div className="transcript" aria-live={live ? 'polite' : undefined} data-testid="transcript">
            {session.transcription ? (
              highlight?.sessionId === session.id ? (
                highlightPieces(session.transcription, highlight.spans).map((piece, i) =>
                  piece.marked ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in order, rebuilt whole from it; they hold no state.
                    <mark key={i} data-testid="evidence-highlight">
                      <TranscriptText text={piece.text} />
                    </mark>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in order, rebuilt whole from it; they hold no state.
                    <TranscriptText key={i} text={piece.text} />
                  ),
                )
              ) : (
                <TranscriptText text={session.transcription} />
              )
            ) : (
              <span className="muted">{status === 'processing' ? <Trans>Transcribing…</Trans> : <Trans>Nothing transcribed yet.</Trans>}</span>
            )}
          </div>
          {status === 'processing' && session.transcription && (
            <p className="muted" role="status">
              <Trans>Transcribing…</Trans>
            </p>
          )}
          {highlight?.sessionId === session.id && (
            <Button variant="ghost" onClick={() => setHighlight(null)}>
              <Trans>Clear highlight</Trans>
            </Button>
          )}
          {session.transcription && !readOnly && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              <Trans>Edit transcript</Trans>
            </Button>
          )}
        </>
      )}
    </section>
  );
}
