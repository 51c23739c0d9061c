import { Trans } from '@lingui/react/macro';
import { useAtom } from 'jotai';
import type { DocumentEvidence } from '../../api/documents';
import { evidenceHighlightAtom } from './evidence-highlight';

/**
 * The document's sentences with where each comes from: choosing one highlights the stretch of the transcript it
 * rests on; a sentence nothing in the transcript or the clinician's inputs supports is marked for checking.
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
          <Trans>Choose a sentence to see where it was said. Sentences marked “Not in the transcript” rest on nothing that was said or entered: check them.</Trans>
        )}
      </p>
      <ol className="evidence-list">
        {evidence.sentences.map((s, i) => {
          const chosen = highlight?.sessionId === sessionId && highlight.sentence === s.text;
          return (
            <li key={i} data-source={s.source}>
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
                {s.source === 'transcript' ? <Trans>From the transcript</Trans> : s.source === 'inputs' ? <Trans>From your inputs</Trans> : <Trans>Not in the transcript</Trans>}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
