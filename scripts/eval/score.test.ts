import { describe, expect, it } from 'vitest';
import { scoreDialogue } from './score.js';
import { markdownTable } from './table.js';

const NOTE = `# Consultation notes
_Assembled without AI from your inputs and the transcript. Review it before you use it._

**Date:** 15 January 2026

**Clinician:** Dr. Eval

## Subjective
- Um, cough for two weeks.
- Yeah.

## Plan
- amoxicillin 500 mg three times a day
- Next consultation: in 1 week
`;

describe('one dialogue scored, and the table', () => {
  const score = scoreDialogue({
    note: NOTE,
    transcript: 'Patient: I have had a cough for two weeks.\nClinician: Take amoxicillin five hundred milligrams three times a day and come back in a week.',
    reference: 'HISTORY OF PRESENT ILLNESS\n\nCough for 2 weeks.\n\nPLAN\n\nAmoxicillin 500 mg three times daily. Follow up in 1 week.',
  });
  it('scores the body only, against the reference', () => {
    expect(score.rouge.rouge1).toBeGreaterThan(40);
    // 2 weeks, 500 mg, 3 times, 1 week, amoxicillin, cough
    expect(score.facts).toMatchObject({ total: 6, countable: 6, kept: 6, placed: 6 });
    expect(score.followUp).toEqual({ interval: { value: 1, unit: 'week' }, captured: true });
    expect(score.fillers.found).toEqual(['um', 'yeah']);
    expect(score.fragments).toBe(1);
    expect(score.wrong.wrong).toEqual([]);
    expect(score.omissions).toMatchObject({ missed: 0, named: 0 });
  });
  it('prints one Markdown row per set and form', () => {
    const table = markdownTable([{ set: 'aci-valid', form: 'labelled', scores: [score] }]);
    const [head, rule, row] = table.split('\n');
    expect(head).toMatch(/^\| set +\| form +\| +n \| +R-1 \|/);
    expect(rule).toMatch(/^\|-+\|-+\|-+:\|/);
    expect(row).toContain('| aci-valid | labelled |');
    expect(row).toContain('6/6');
    expect(row).toContain('1/1');
    expect(row).toContain('listed/note');
  });
});
