/**
 * How likely a patient is to be the one a trial looks for, from 0 to 100, so a coordinator opens the right records
 * first. Two parts: how much of the trial's own vocabulary (its name, description and inclusion criteria) the
 * record speaks to, concept phrases counted in any language; and how its criteria came out (satisfied counts in
 * full, unclear half). It depends on this patient's record alone, so re-screening one patient never moves the
 * others. The result list also puts every patient a critical criterion rules out after the others, whatever
 * their score.
 */
import { indexPassages, rankPassages, termCoverage } from '../../clinical/passage-ranking.js';
import { sentences } from '../../clinical/record-text.js';
import { isExclusion, satisfied, type Criterion, type CriterionAssessment } from './criteria.js';

/** A trial's words that describe every trial, not its patients. */
const TRIAL_WORDS =
  /\b(?:randomi[sz]ed|randomi[sz]ado|randomisiert\w*|aleatori[sz]ad[oa]|placebo|controlled|controlado|kontrolliert\w*|double|blind|cego|doble|ciego|doppelblind\w*|open|label|phase|fase|multicent\w*|efficacy|eficacia|wirksamkeit|safety|seguranca|seguridad|sicherheit|evaluat\w*|avaliar|evaluar|compar\w*|vergleich\w*|trial|ensaio|ensayo|studie|estudo|estudio|study|aims?|objetivo|ziel)\b/gi;

export type Relevance = { score: number };

/** The criteria's share satisfied (unclear counting half), from 0 to 1. */
function criteriaShare(criteria: Criterion[], assessments: CriterionAssessment[]): number {
  if (criteria.length === 0) return 0;
  const verdictOf = new Map(assessments.map((a) => [a.criterion_id, a.verdict]));
  let points = 0;
  for (const c of criteria) {
    const ok = satisfied(c.type, verdictOf.get(c.id) ?? 'unclear');
    points += ok === undefined ? 0.5 : ok ? 1 : 0;
  }
  return points / criteria.length;
}

export function relevanceOf(
  trial: { name: string; description: string },
  criteria: Criterion[],
  assessments: CriterionAssessment[],
  documents: string,
): Relevance {
  if (!documents.trim()) return { score: 0 };
  const about = `${trial.name}. ${trial.description}`.replace(TRIAL_WORDS, ' ');
  const inclusion = criteria
    .filter((c) => !isExclusion(c.type))
    .map((c) => c.definition)
    .join('. ');
  // The condition weighs most: a record that never names it is rarely the patient, whatever else it says.
  const condition = 0.45 * termCoverage(about, documents) + 0.2 * termCoverage(inclusion, documents);
  return { score: Math.round(100 * (condition + 0.35 * criteriaShare(criteria, assessments))) };
}

/** The record's three sentences that best answer each unclear criterion, with the words that matched. */
export function unclearPassages(
  criteria: Criterion[],
  assessments: CriterionAssessment[],
  documents: string,
): Map<string, { text: string; matched: string[] }[]> {
  const found = new Map<string, { text: string; matched: string[] }[]>();
  const verdictOf = new Map(assessments.map((a) => [a.criterion_id, a.verdict]));
  const open = criteria.filter((c) => (verdictOf.get(c.id) ?? 'unclear') === 'unclear');
  const lines = documents.trim() && open.length ? sentences(documents) : [];
  if (lines.length === 0) return found;
  const index = indexPassages(lines);
  for (const c of open) {
    const ranked = rankPassages(c.definition, index, 3).map(({ text, matched }) => ({ text: text.slice(0, 600), matched }));
    if (ranked.length > 0) found.set(c.id, ranked);
  }
  return found;
}

/**
 * The order of a trial's results (results.ts sorts the same way in SQL): patients a critical criterion rules out
 * last, then the likeliest first.
 */
export function byLikelihood(a: { preEvaluation: string; relevance: number | null }, b: { preEvaluation: string; relevance: number | null }): number {
  const out = (r: { preEvaluation: string }) => (r.preEvaluation === 'not_approved' ? 1 : 0);
  return out(a) - out(b) || (b.relevance ?? -1) - (a.relevance ?? -1);
}
