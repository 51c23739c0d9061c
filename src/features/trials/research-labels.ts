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

export const verdictLabel: Record<Verdict, MessageDescriptor> = {
  met: msg`Met`,
  not_met: msg`Not met`,
  unclear: msg`Unclear`,
};
