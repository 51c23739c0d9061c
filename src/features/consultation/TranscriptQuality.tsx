import { Trans, useLingui } from '@lingui/react/macro';
import { isDemoQualityEngine, lowConfidence } from '../../../contract/transcript-quality';
import { Alert } from '../../ui/Alert';

/** The server's rule (contract/transcript-quality.ts), for the warnings on screen. */
export function transcriptQuality(transcript: string | undefined, engines: string[] | undefined) {
  return { demo: (engines ?? []).some(isDemoQualityEngine), low: lowConfidence(transcript ?? '') };
}

/** An engine's id ('pocketsphinx:clinical', 'openai:whisper-1', 'whisper.cpp:ggml-base.bin') as the clinician reads it. */
function useEngineName() {
  const { t } = useLingui();
  return (id: string) => {
    const [kind, model = ''] = id.split(/:(.*)/s);
    if (kind === 'pocketsphinx') return model === 'clinical' ? t`the local speech engine (clinical model)` : t`the local speech engine`;
    if (kind === 'openai') return t`${model} (connected engine)`;
    if (kind === 'whisper.cpp') return t`Whisper on this server (${model})`;
    return id;
  };
}

/** Which engine wrote the transcript, and how far it can be trusted: said in the transcript and above the documents. */
export function TranscriptQuality({
  transcript,
  engines,
  place,
}: {
  transcript: string | undefined;
  engines: string[] | undefined;
  place: 'transcript' | 'documents';
}) {
  const name = useEngineName();
  const { demo, low } = transcriptQuality(transcript, engines);
  const names = (engines ?? []).map(name).join(', ');
  if (place === 'transcript' && !demo && !low) {
    return names ? (
      <p className="muted" data-testid="transcript-engine">
        <Trans>Transcribed by {names}.</Trans>
      </p>
    ) : null;
  }
  if (!demo && !low) return null;
  return (
    <Alert tone="warning">
      <span data-testid="transcript-quality">
        {names && place === 'transcript' && (
          <>
            <Trans>Transcribed by {names}.</Trans>{' '}
          </>
        )}
        {demo && low ? (
          <Trans>Demo quality, and many words were not heard clearly — check every value against the recording.</Trans>
        ) : demo ? (
          <Trans>Demo quality — check every value against the recording.</Trans>
        ) : (
          <Trans>Many words of this transcript were not heard clearly: check every value against the recording.</Trans>
        )}
      </span>
    </Alert>
  );
}
