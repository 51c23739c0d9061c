/** The screening evaluation set (tests/fixtures/screening) is well formed: `npm run eval:screening` scores against it. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../../contract/constants.js';
import { EVAL_SET } from '../../../../tests/fixtures/screening/eval-set.js';
import { HELD_OUT_2_SET } from '../../../../tests/fixtures/screening/held-out-2.js';
import { HELD_OUT_3_SET } from '../../../../tests/fixtures/screening/held-out-3.js';
import { HELD_OUT_SET } from '../../../../tests/fixtures/screening/held-out.js';
import { classify } from './criteria.js';

const development = EVAL_SET.flatMap(({ trial, patients }) => patients.map((patient) => ({ trial, patient })));
// The held-out records are held to the same form: a label the scorer can trust.
const patients = [
  ...development,
  ...[...HELD_OUT_SET, ...HELD_OUT_2_SET, ...HELD_OUT_3_SET].flatMap(({ trial, patients }) => patients.map((patient) => ({ trial, patient }))),
];

describe('screening evaluation set', () => {
  it('holds at least 3 trials and 30 patients in the four languages, with split and scanned records', () => {
    expect(EVAL_SET.length).toBeGreaterThanOrEqual(3);
    expect(development.length).toBeGreaterThanOrEqual(30);
    expect(new Set(development.map((p) => p.patient.language))).toEqual(new Set(LANGUAGES));
    expect(development.filter((p) => p.patient.files.length > 1).length).toBeGreaterThanOrEqual(2);
    expect(development.filter((p) => p.patient.files.some((f) => f.scanned)).length).toBeGreaterThanOrEqual(2);
    expect(new Set(patients.map((p) => p.patient.id)).size).toBe(patients.length);
  });

  it('labels every criterion of its trial for every patient, and nothing else', () => {
    for (const { trial, patient } of patients) {
      expect(Object.keys(patient.labels).sort(), patient.id).toEqual(trial.criteria.map((c) => c.id).sort());
    }
  });

  it('quotes every evidence word for word from one of the patient’s files; only unclear labels have none', () => {
    for (const { patient } of patients) {
      for (const [criterion, label] of Object.entries(patient.labels)) {
        const where = `${patient.id} ${criterion}`;
        if (label.evidence === null) {
          expect(label.verdict, where).toBe('unclear');
          expect(label.explicit, where).toBe(false);
        } else {
          expect(
            patient.files.some((f) => f.text.includes(label.evidence!)),
            where,
          ).toBe(true);
        }
      }
    }
  });

  it('gives each patient the eligibility the product would reach from the hand labels', () => {
    for (const { trial, patient } of patients) {
      const assessments = Object.entries(patient.labels).map(([criterion_id, l]) => ({ criterion_id, verdict: l.verdict, evidence: l.evidence ?? '' }));
      expect(classify(trial.criteria, assessments).preEvaluation, patient.id).toBe(patient.eligibility);
    }
  });
});
