import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { CriterionResult, DecisionChange, EvaluationResult, Passage } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextAreaField } from '../../ui/TextAreaField';
import { DecidedBy, ScreeningChangedBadge } from './DecisionNotes';
import { criterionTypeLabel, criterionVerdictLabel, preEvaluationLabel, resultStatusLabel } from './research-labels';

/** Whether the verdict keeps the patient in: a met exclusion rules them out just as an unmet inclusion does. */
const outcome = (c: CriterionResult) => (c.verdict === 'unclear' ? 'unclear' : (c.verdict === 'met') === c.type.endsWith('inclusion') ? 'passes' : 'fails');

/** A sentence with the words that matched the criterion marked, so the reader sees at once why it was chosen. */
function MarkedPassage({ passage }: { passage: Passage }) {
  const words = [...passage.matched]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return <>{passage.text}</>;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${words.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const parts = passage.text.split(pattern);
  // split keeps the matched words at the odd indexes.
  // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one sentence in order, rebuilt whole from it; the index also says which are matches.
  return <>{parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}</>;
}

/** Under an unclear verdict: the record's sentences closest to the criterion, best first, with what matched. */
function ClosestPassages({ passages }: { passages: Passage[] }) {
  return (
    <div className="passages">
      <p className="muted">
        <Trans>Closest sentences in the records, best first:</Trans>
      </p>
      <ol>
        {passages.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the passages as ranked for this result, never reordered; two may share their text, so the place goes with it.
          <li key={`${i}-${p.text}`}>
            <blockquote className="evidence">
              <MarkedPassage passage={p} />
            </blockquote>
            <p className="muted">
              <Trans>Matched: {p.matched.join(', ')}</Trans>
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** One patient's screening: each criterion with its verdict and the words it rests on, and the researcher's decision. */
export function ResultDialog({ result, onDecide, onClose }: { result: EvaluationResult; onDecide: (change: DecisionChange) => void; onClose: () => void }) {
  const { i18n, t } = useLingui();
  const [note, setNote] = useState(result.decision_note);
  const label = result.patient_label;
  const noteChanged = note.trim() !== result.decision_note;
  const then = result.decided_on_pre_evaluation ? i18n._(preEvaluationLabel[result.decided_on_pre_evaluation]) : '';
  const now = i18n._(preEvaluationLabel[result.pre_evaluation]);
  return (
    <Dialog open size="wide" onOpenChange={(open) => !open && onClose()} title={<Trans>Screening of {label}</Trans>}>
      <p>
        <span className="badge" data-result={result.pre_evaluation}>
          {i18n._(preEvaluationLabel[result.pre_evaluation])}
        </span>{' '}
        <Trans>
          {result.criteria_met} of {result.criteria_total} criteria satisfied
        </Trans>{' '}
        · {i18n._(resultStatusLabel[result.status])}
        {result.relevance !== null && (
          <>
            {' '}
            · <Trans>Relevance {result.relevance}/100</Trans>
          </>
        )}{' '}
        <ScreeningChangedBadge result={result} />
      </p>
      {result.decided_at && (
        <p>
          <DecidedBy result={result} />
        </p>
      )}
      {result.machine_changed_since_decision && (
        <Alert tone="warning">
          <Trans>
            The screening changed since the decision: it said {then} then and says {now} now. The decision stands; approve or decline again to confirm it.
          </Trans>
        </Alert>
      )}
      {result.engine === 'offline' ? (
        <p className="muted">
          <Trans>
            Screened without AI: ages and lab values were compared as numbers and other criteria matched by their words in the records. Check each piece of
            evidence.
          </Trans>
        </p>
      ) : (
        result.explanation && <p>{result.explanation}</p>
      )}
      <ul className="criteria-list">
        {result.criteria.map((c) => (
          <li key={c.criterion_id} className="criterion-item" data-verdict={c.verdict} data-outcome={outcome(c)}>
            <div>
              <span className="badge" data-criterion={c.type}>
                {i18n._(criterionTypeLabel[c.type])}
              </span>{' '}
              <strong>{i18n._(criterionVerdictLabel(c.type, c.verdict))}</strong>
              <p>{c.definition}</p>
              {c.explanation && <p className="muted">{c.explanation}</p>}
              {c.evidence ? (
                <blockquote className="evidence">{c.evidence}</blockquote>
              ) : (
                !c.passages?.length && (
                  <p className="muted">
                    <Trans>Not found in the records.</Trans>
                  </p>
                )
              )}
              {c.verdict === 'unclear' && c.passages?.length ? <ClosestPassages passages={c.passages} /> : null}
            </div>
          </li>
        ))}
      </ul>
      <TextAreaField label={t`Reviewer's note`} value={note} maxLength={2000} rows={3} onChange={(e) => setNote(e.target.value)} />
      <div className="dialog-actions">
        {result.decision && (
          <Button variant="ghost" onClick={() => onDecide({ decision: null, ...(noteChanged ? { note } : {}) })}>
            <Trans>Undo decision</Trans>
          </Button>
        )}
        {noteChanged && (
          <Button variant="secondary" onClick={() => onDecide({ note })}>
            <Trans>Save note</Trans>
          </Button>
        )}
        <Button variant="secondary" onClick={() => onDecide({ decision: 'declined', ...(noteChanged ? { note } : {}) })}>
          <Trans>Decline</Trans>
        </Button>
        <Button onClick={() => onDecide({ decision: 'approved', ...(noteChanged ? { note } : {}) })}>
          <Trans>Approve</Trans>
        </Button>
      </div>
    </Dialog>
  );
}
