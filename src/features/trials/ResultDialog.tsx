import { Trans, useLingui } from '@lingui/react/macro';
import type { CriterionResult, EvaluationResult, ResultStatus } from '../../api/research';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { criterionTypeLabel, preEvaluationLabel, resultStatusLabel, verdictLabel } from './research-labels';

/** Whether the verdict keeps the patient in: a met exclusion rules them out just as an unmet inclusion does. */
const outcome = (c: CriterionResult) => (c.verdict === 'unclear' ? 'unclear' : (c.verdict === 'met') === c.type.endsWith('inclusion') ? 'passes' : 'fails');

/** One patient's screening: each criterion with its verdict and the words it rests on, and the researcher's decision. */
export function ResultDialog({ result, onDecide, onClose }: { result: EvaluationResult; onDecide: (status: ResultStatus) => void; onClose: () => void }) {
  const { i18n } = useLingui();
  const label = result.patient_label;
  return (
    <Dialog open size="wide" onOpenChange={(open) => !open && onClose()} title={<Trans>Screening of {label}</Trans>}>
      <p>
        <span className="badge" data-result={result.pre_evaluation}>
          {i18n._(preEvaluationLabel[result.pre_evaluation])}
        </span>{' '}
        <Trans>
          {result.criteria_met} of {result.criteria_total} criteria met
        </Trans>{' '}
        · {i18n._(resultStatusLabel[result.status])}
      </p>
      {result.engine === 'offline' ? (
        <p className="muted">
          <Trans>Screened without AI: ages and lab values were compared as numbers and other criteria matched by their words in the records. Check each piece of evidence.</Trans>
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
              <strong>{i18n._(verdictLabel[c.verdict])}</strong>
              <p>{c.definition}</p>
              {c.evidence ? (
                <blockquote className="evidence">{c.evidence}</blockquote>
              ) : (
                <p className="muted">
                  <Trans>Not found in the records.</Trans>
                </p>
              )}
            </div>
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={() => onDecide('declined')}>
          <Trans>Decline</Trans>
        </Button>
        <Button onClick={() => onDecide('approved')}>
          <Trans>Approve</Trans>
        </Button>
      </div>
    </Dialog>
  );
}
