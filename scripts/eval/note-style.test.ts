import { describe, expect, it } from 'vitest';
import { fillersIn, followUpCaptured, followUpInterval, fragments, verbatim } from './note-style.js';
import { omissionsOf } from './omissions.js';

describe('fillers', () => {
  it('counts conversation habits per word, like and so only as fillers', () => {
    const f = fillersIn(['Um, okay, so the pain, you know, is better.', 'So, like, it hurts. Mm-hmm.', 'I like walking.', 'Hey Dragon, show me the vitals.']);
    expect(f.found.sort()).toEqual(['hey dragon', 'like (filler)', 'mm-hmm', 'okay', 'so (sentence start)', 'um', 'you know'].sort());
    expect(f.words).toBe(24);
    expect(fillersIn(['She came to the ER.', 'Er, it hurts.']).found).toEqual(['er']);
  });
});

describe('fragments and verbatim sentences', () => {
  it('counts lines of three words or fewer', () => {
    expect(fragments(['Brian.', 'Yeah, right.', 'Cough for a week.', 'i feel bloated sometimes'])).toBe(2);
  });
  it('finds sentences of six words or more said word for word', () => {
    const v = verbatim(
      ['I feel bloated every once in a while. Short one.', 'Lasix was increased to 80 mg daily.'],
      'Patient: i feel , i feel bloated every once in a while .\nClinician: increase your lasix',
    );
    expect(v).toEqual({ sentences: 2, verbatim: 1, examples: ['I feel bloated every once in a while.'] });
  });
});

describe('follow-up interval', () => {
  it('reads the reference’s interval', () => {
    expect(followUpInterval('He will follow up in 2 weeks.')).toEqual({ value: 2, unit: 'week' });
    expect(followUpInterval('The patient will return in a month for a recheck.')).toEqual({ value: 1, unit: 'month' });
    expect(followUpInterval('I will see you back in six months.')).toEqual({ value: 6, unit: 'month' });
    expect(followUpInterval('She will have a 3-month follow-up.')).toEqual({ value: 3, unit: 'month' });
    expect(followUpInterval('Follow up in 4 to 6 weeks.')).toEqual({ value: 4, unit: 'week' });
    expect(followUpInterval('Symptoms began 2 weeks ago.')).toBeUndefined();
  });
  it('finds it in the note on a follow-up line, same number and unit', () => {
    expect(followUpCaptured(['Next consultation: in 2 weeks'], { value: 2, unit: 'week' })).toBe(true);
    expect(followUpCaptured(['i want to see you again in two weeks'], { value: 2, unit: 'week' })).toBe(true);
    expect(followUpCaptured(['Next consultation: in 14 days'], { value: 2, unit: 'week' })).toBe(false);
    expect(followUpCaptured(['Pain for 2 weeks.'], { value: 2, unit: 'week' })).toBe(false);
  });
});

describe('omission list hook', () => {
  it('reads the product’s list of what was said and left out of the note', () => {
    expect(omissionsOf('## Plan\n- Review.', 'I will start lisinopril 10 mg daily.')).toEqual(['I will start lisinopril 10 mg daily.']);
    expect(omissionsOf('## Plan\n- Lisinopril 10 mg daily.', 'I will start lisinopril 10 mg daily.')).toEqual([]);
  });
});
