import { describe, expect, it } from 'vitest';
import type { Criterion, CriterionAssessment } from './criteria.js';
import { byLikelihood, relevanceOf, unclearPassages } from './relevance.js';

const trial = { name: 'HF-SPAN', description: 'A randomised, placebo-controlled trial in adults with chronic heart failure and reduced ejection fraction.' };
const criteria: Criterion[] = [
  { id: 'age', definition: 'Age ≥ 18 years', type: 'critical_inclusion', needsReview: false },
  { id: 'hf', definition: 'Chronic heart failure, NYHA class II–IV', type: 'critical_inclusion', needsReview: false },
  { id: 'egfr', definition: 'eGFR < 30 mL/min/1.73 m²', type: 'critical_exclusion', needsReview: false },
];
const verdicts = (...v: CriterionAssessment['verdict'][]): CriterionAssessment[] =>
  criteria.map((c, i) => ({ criterion_id: c.id, verdict: v[i]!, evidence: '' }));

describe('relevance of a record to a trial', () => {
  const heart = 'A 71-year-old man with chronic heart failure, ejection fraction 30 %. NYHA class III. Creatinine 1.1 mg/dL.';
  const knee = 'A 71-year-old man with osteoarthritis of the knee. Walks with a stick.';

  it('scores the record of the trial’s condition above one that never names it, with the same verdicts', () => {
    const same = verdicts('met', 'unclear', 'unclear');
    expect(relevanceOf(trial, criteria, same, heart).score).toBeGreaterThan(relevanceOf(trial, criteria, same, knee).score + 25);
    expect(relevanceOf(trial, criteria, same, '').score).toBe(0);
  });

  it('adds the criteria the record satisfies, and stays within 0–100', () => {
    const settled = relevanceOf(trial, criteria, verdicts('met', 'met', 'not_met'), heart).score;
    expect(settled).toBeGreaterThan(relevanceOf(trial, criteria, verdicts('met', 'unclear', 'unclear'), heart).score);
    expect(settled).toBeLessThanOrEqual(100);
  });

  it('orders the ruled out last whatever their score, then the likeliest first', () => {
    const list = [
      { id: 'a', preEvaluation: 'not_approved', relevance: 95 },
      { id: 'b', preEvaluation: 'possible', relevance: 40 },
      { id: 'c', preEvaluation: 'fit', relevance: 80 },
      { id: 'd', preEvaluation: 'possible', relevance: null },
    ];
    expect(list.sort(byLikelihood).map((r) => r.id)).toEqual(['c', 'b', 'd', 'a']);
  });
});

describe('the closest sentences under an unclear criterion', () => {
  it('are given only where the verdict is unclear, best first, with what matched', () => {
    const record = 'Chronic heart failure since 2019.\nNYHA class III on exertion.\nLives alone.';
    const found = unclearPassages(criteria, verdicts('met', 'unclear', 'unclear'), record);
    expect(found.has('age')).toBe(false);
    expect(found.get('hf')![0]).toEqual({ text: expect.stringMatching(/^(Chronic heart failure|NYHA class III)/), matched: expect.any(Array) });
    expect(found.get('hf')!.map((p) => p.text)).not.toContain('Lives alone.');
    // Nothing in the record speaks of the eGFR: no passage rather than a random one.
    expect(found.has('egfr')).toBe(false);
    expect(unclearPassages(criteria, verdicts('unclear', 'unclear', 'unclear'), '').size).toBe(0);
  });
});
