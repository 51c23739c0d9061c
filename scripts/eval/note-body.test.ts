import { describe, expect, it } from 'vitest';
import { noteBody } from './note-body.js';

const NOTE = `# Consultation notes
_Assembled without AI from your inputs and the transcript. Review it before you use it._

**Date:** 15 January 2026

**Clinician:** Dr. Eval

## Subjective
- Cough for a week.

**Allergies:** penicillin

## Objective
- [to be completed]

## Assessment
- Chest infection.

## Plan
- amoxicillin 500 mg three times a day
- Medication: [to be completed]
- Next consultation: in 1 week
`;

describe('note body', () => {
  const body = noteBody(NOTE);
  it('leaves out the title, the no-AI label, the date and clinician lines and blanks', () => {
    expect(body.text).not.toMatch(/Consultation notes|Assembled without AI|January|Dr\. Eval|to be completed|Medication/);
    expect(body.text).toContain('Subjective');
    expect(body.lines).toEqual([
      'Cough for a week.',
      'Allergies: penicillin',
      'Chest infection.',
      'amoxicillin 500 mg three times a day',
      'Next consultation: in 1 week',
    ]);
  });
  it('cuts the note into its sections by their headings', () => {
    expect(body.sections.subjective).toContain('Cough');
    expect(body.sections.subjective).toContain('penicillin');
    expect(body.sections.objective).toBeUndefined();
    expect(body.sections.assessment).toContain('Chest infection');
    expect(body.sections.plan).toContain('amoxicillin');
  });
  it('reads headings in the other languages', () => {
    expect(noteBody('## Avaliação\n- gripe\n## Plano\n- repouso').sections).toEqual({ assessment: '\n- gripe', plan: '\n- repouso' });
  });
});
