import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { CriterionType, PreEvaluation, ResultStatus, Verdict } from '../../api/research';

/** Spec §4 names, as the researcher reads them. */
export const criterionTypeLabel: Record<CriterionType, MessageDescriptor> = {
  critical_inclusion: msg`Critical inclusion`,
  critical_exclusion: msg`Critical exclusion`,
  non_critical_inclusion: msg`Non-critical inclusion`,
  non_critical_exclusion: msg`Non-critical exclusion`,
};

export const preEvaluationLabel: Record<PreEvaluation, MessageDescriptor> = {
  not_approved: msg`Not approved`,
  fit: msg`Fit`,
  possible: msg`Possible`,
};

export const resultStatusLabel: Record<ResultStatus, MessageDescriptor> = {
  approved: msg`Approved`,
  declined: msg`Declined`,
  in_review: msg`In review`,
  requires_review: msg`Requires review`,
};

/**
 * A criterion's verdict as what it means for the patient: an inclusion is satisfied or not, an exclusion applies
 * or not. Never one word for both ('met' would say a patient ruled out by an exclusion met something).
 */
export function criterionVerdictLabel(type: CriterionType, verdict: Verdict): MessageDescriptor {
  if (verdict === 'unclear') return VERDICT.unclear;
  const inclusion = type.endsWith('inclusion');
  if (verdict === 'met') return inclusion ? VERDICT.satisfied : VERDICT.applies;
  return inclusion ? VERDICT.notSatisfied : VERDICT.doesNotApply;
}
const VERDICT = {
  satisfied: msg`Satisfied`,
  notSatisfied: msg`Not satisfied`,
  applies: msg`Exclusion applies`,
  doesNotApply: msg`Exclusion does not apply`,
  unclear: msg`Unclear`,
};
