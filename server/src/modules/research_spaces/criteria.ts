/** The four kinds of criterion (spec §4) and what a verdict on each means for eligibility. */
export const CRITERION_TYPES = ['critical_inclusion', 'critical_exclusion', 'non_critical_inclusion', 'non_critical_exclusion'] as const;
export type CriterionType = (typeof CRITERION_TYPES)[number];
export type Verdict = 'met' | 'not_met' | 'unclear';
export type PreEvaluation = 'not_approved' | 'fit' | 'possible';
export type ResultStatus = 'approved' | 'declined' | 'in_review' | 'requires_review';

export type Criterion = { id: string; definition: string; type: CriterionType; needsReview: boolean };
/** `explanation`: why, in the user's language, when a model screened it (the offline screener writes none). */
export type CriterionAssessment = { criterion_id: string; verdict: Verdict; evidence: string; explanation?: string };

export const isExclusion = (type: CriterionType) => type.endsWith('exclusion');
export const isCritical = (type: CriterionType) => type.startsWith('critical');

/** A criterion counts for the patient when an inclusion is met or an exclusion is not. */
export function satisfied(type: CriterionType, verdict: Verdict): boolean | undefined {
  if (verdict === 'unclear') return undefined;
  return isExclusion(type) ? verdict === 'not_met' : verdict === 'met';
}

/**
 * The screening's own class and status. One critical criterion failed rules the patient out; every criterion
 * satisfied makes them fit; anything else (an unclear criterion, a non-critical one failed) is possible. The
 * researcher decides in the end: until then a result is in review, or requires review when the screening could
 * not settle a criterion or one of them is marked for a person to check.
 */
export function classify(criteria: Criterion[], assessments: CriterionAssessment[]): { preEvaluation: PreEvaluation; met: number; status: ResultStatus } {
  const verdictOf = new Map(assessments.map((a) => [a.criterion_id, a.verdict]));
  let met = 0;
  let failedCritical = false;
  let allSatisfied = true;
  let unsettled = false;
  for (const c of criteria) {
    const ok = satisfied(c.type, verdictOf.get(c.id) ?? 'unclear');
    if (ok) met++;
    else allSatisfied = false;
    if (ok === false && isCritical(c.type)) failedCritical = true;
    if (ok === undefined || c.needsReview) unsettled = true;
  }
  const preEvaluation: PreEvaluation = failedCritical ? 'not_approved' : allSatisfied ? 'fit' : 'possible';
  return { preEvaluation, met, status: unsettled ? 'requires_review' : 'in_review' };
}
