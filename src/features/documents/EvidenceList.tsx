import { Trans, useLingui } from '@lingui/react/macro';
import { useAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { documentsApi, type DocumentEvidence, type EvidenceSpan } from '../../api/documents';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeFailure } from '../i18n/api-error-messages';
import { evidenceHighlightAtom } from './evidence-highlight';

/** Starts a little before the estimated moment: the estimate comes from where the words fall in the part's text. */
const LEAD_IN_S = 0.5;

/**
 * Plays the recorded part a sentence was said in, from about the moment it was said, with the player's own
 * controls (pause, seek, volume) for the keyboard and screen readers.
 */
function ListenButton({ sessionId, audio, sentence }: { sessionId: string; audio: NonNullable<EvidenceSpan['audio']>; sentence: string }) {
  const { i18n, t } = useLingui();
  const [url, setUrl] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const player = useRef<HTMLAudioElement>(null);

  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  async function listen() {
    if (url) {
      void player.current?.play();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      setUrl(URL.createObjectURL(await documentsApi.audioPart(sessionId, audio.id)));
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button variant="ghost" busy={busy} onClick={listen} aria-label={t`Listen to where this was said: ${sentence}`}>
        <Trans>Listen</Trans>
      </Button>
      {url && (
        // biome-ignore lint/a11y/useMediaCaption: audio only, of words written beside it (the sentence) and in the transcript on the page; there is no caption file to give.
        <audio
          ref={player}
          className="evidence-audio"
          src={url}
          controls
          autoPlay
          data-testid="evidence-audio"
          aria-label={t`Recording of: ${sentence}`}
          onLoadedMetadata={(e) => {
            e.currentTarget.currentTime = Math.max(0, audio.offset_ms / 1000 - LEAD_IN_S);
          }}
        />
      )}
      {error && <Alert tone="error">{error}</Alert>}
    </>
  );
}

/**
 * The document's sentences with where each comes from: choosing one highlights the stretch of the transcript it
 * rests on, and while the audio is kept it can be heard; a sentence nothing in the transcript or the clinician's
 * inputs supports is marked for checking.
 */
export function EvidenceList({ sessionId, evidence }: { sessionId: string; evidence: DocumentEvidence }) {
  const [highlight, setHighlight] = useAtom(evidenceHighlightAtom);
  const unsupported = evidence.sentences.filter((s) => s.source === 'none').length;
  return (
    <div className="evidence">
      <p className="muted">
        {unsupported === 0 ? (
          <Trans>Every sentence rests on the transcript or your inputs. Choose one to see where it was said.</Trans>
        ) : (
          <Trans>
            Choose a sentence to see where it was said. Sentences marked “Not in the transcript” rest on nothing that was said or entered: check them.
          </Trans>
        )}
      </p>
      <ol className="evidence-list">
        {evidence.sentences.map((s, i) => {
          const chosen = highlight?.sessionId === sessionId && highlight.sentence === s.text;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the document's sentences as the server gave them, never reordered; the same sentence may appear twice, so the place goes with the text.
            <li key={`${i}-${s.text}`} data-source={s.source}>
              {s.source === 'transcript' ? (
                <button
                  type="button"
                  className="evidence-sentence"
                  aria-pressed={chosen}
                  onClick={() => {
                    setHighlight(chosen ? null : { sessionId, sentence: s.text, spans: s.spans });
                    // Brings the transcript into view (older engines, and test DOMs, have no scrollIntoView).
                    if (!chosen) document.querySelector('[data-testid="transcript"]')?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
                  }}
                >
                  {s.text}
                </button>
              ) : (
                <span className="evidence-sentence">{s.text}</span>
              )}{' '}
              <span className="badge" data-source={s.source}>
                {s.source === 'transcript' ? (
                  <Trans>From the transcript</Trans>
                ) : s.source === 'inputs' ? (
                  <Trans>From your inputs</Trans>
                ) : (
                  <Trans>Not in the transcript</Trans>
                )}
              </span>
              {s.spans[0]?.audio && <ListenButton sessionId={sessionId} audio={s.spans[0].audio} sentence={s.text} />}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
