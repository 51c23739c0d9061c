import { Trans, useLingui } from '@lingui/react/macro';
import type { EvaluationResult } from '../../api/research';
import { preEvaluationLabel } from './research-labels';

/** Said on a decision a later screening disagrees with: the decision stands until the reviewer decides again. */
export function ScreeningChangedBadge({ result }: { result: EvaluationResult }) {
  const { i18n, t } = useLingui();
  if (!result.machine_changed_since_decision) return null;
  const then = result.decided_on_pre_evaluation ? i18n._(preEvaluationLabel[result.decided_on_pre_evaluation]) : undefined;
  const now = i18n._(preEvaluationLabel[result.pre_evaluation]);
  return (
    <span className="badge" data-changed="true" title={then ? t`When decided: ${then}. Now: ${now}.` : undefined}>
      <Trans>The screening changed since the decision</Trans>
    </span>
  );
}

/** Who decided (or wrote the note) and when; nothing while nobody has. */
export function DecidedBy({ result }: { result: EvaluationResult }) {
  const { i18n, t } = useLingui();
  if (!result.decided_at) return null;
  const name = result.decided_by?.name || t`a deleted account`;
  const when = i18n.date(result.decided_at, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <span className="muted decided-by">
      {result.decision === 'approved' ? (
        <Trans>
          Approved by {name}, {when}
        </Trans>
      ) : result.decision === 'declined' ? (
        <Trans>
          Declined by {name}, {when}
        </Trans>
      ) : (
        <Trans>
          Note by {name}, {when}
        </Trans>
      )}
    </span>
  );
}
