import { describe, expect, it } from 'vitest';
import {
  compareFlags,
  countsOf,
  inventedConcepts,
  inventedNumbers,
  inventedTerms,
  precision,
  recall,
  sameNumber,
  sameWords,
  saidValues,
  type InventedTerm,
} from './guard-truth.js';
import { invented } from './note-facts.js';

const TRANSCRIPT = `Clinician: Your blood pressure is one twenty eight over seventy two, temperature ninety eight point six.
Patient: The pain is like a nine. I'm fifty eight. I take my pills at eight thirty.
Clinician: Your hypertension is fine. Keep the lisinopril twenty milligrams, and I'll see you in a week. The fever was thirty eight point seven.
Clinician: We checked you six weeks ago.`;

const NOTE = `ASSESSMENT AND PLAN

1. Hypertension.
Mr. Smith is a 58-year-old male seen on January 15, 2026, with a history of diabetes and high blood pressure.
Blood pressure 128/70 mmHg. Temperature 98.6 °F (37 °C). Pain 9/10. A1c of 8.
Lisinopril 20 mg daily, and 1,000 mg of a supplement for 3 weeks. Recheck in 6 months. Follow up in 1 week.
No murmurs, gallops, or rubs. Urinary tract infection. Fever 38.7, potassium 0.5.`;

describe('invented numbers, by the scorer’s reading', () => {
  const labels = inventedNumbers(NOTE, TRANSCRIPT).map((t) => t.label);
  it('finds values the transcript never states, with their unit or none', () => {
    expect(labels).toEqual(['128/70 mmhg', '1000 mg', '3 week', '6 month', '0.5']);
  });
  it('leaves out what is said, converted, scored out of ten, a date or a list number', () => {
    // 58-year-old (said as fifty eight), 98.6 and its conversion, 9/10 ('like a nine'), 8 ('eight thirty'),
    // 20 mg, 1 week ('in a week'), 38.7; January 15, 2026; the list's 1.
    for (const said of ['58 year', '98.6 °f', '37 °c', '9/10', '8', '20 mg', '1 week', '38.7', '15', '2026', '1']) expect(labels).not.toContain(said);
  });
  it('reads every number word alone too', () => {
    expect([...saidValues('at eight thirty')]).toEqual(expect.arrayContaining(['830', '8', '30']));
  });
});

describe('invented medicines and diagnoses', () => {
  const terms = inventedConcepts(NOTE, TRANSCRIPT);
  it('are the scorer’s invented terms, a name inside another’s counted once', () => {
    expect(terms.map((t) => t.label).sort()).toEqual(['diabetes', 'murmur', 'urinary tract infection']);
    // The scorer's own list names 'infection' too, inside 'urinary tract infection'.
    expect(invented(NOTE, TRANSCRIPT)).toEqual(expect.arrayContaining(['infection (diagnosis)']));
  });
  it('marks a term named only where the note denies it', () => {
    expect(terms.find((t) => t.label === 'murmur')!.negated).toBe(true);
    expect(terms.find((t) => t.label === 'diabetes')!.negated).toBe(false);
  });
});

describe('matching a flag to an invented term, leniently', () => {
  it('numbers: the same value, a part of a ratio, or a comma read as a thousands mark', () => {
    expect(sameNumber('45', '45')).toBe(true);
    expect(sameNumber('38,5', '38.5')).toBe(true);
    expect(sameNumber('6', '3/6')).toBe(true);
    expect(sameNumber('1.000', '1000')).toBe(true);
    expect(sameNumber('5', '0.5')).toBe(false);
    expect(sameNumber('2.5', '25')).toBe(false);
  });
  it('words: one contains the other, whole words, in any spelling of the term', () => {
    const hypertension: InventedTerm = { kind: 'diagnosis', label: 'hypertension', spellings: ['hypertension', 'high blood pressure'] };
    const failure: InventedTerm = { kind: 'diagnosis', label: 'heart failure', spellings: ['heart failure'] };
    expect(sameWords('High blood pressure', hypertension)).toBe(true);
    expect(sameWords('congestive heart failure', failure)).toBe(true);
    expect(sameWords('failure', failure)).toBe(true);
    expect(sameWords('pressure sore', hypertension)).toBe(false);
    expect(sameWords('heartburn', failure)).toBe(false);
  });
});

describe('the guard’s flags against the ground truth', () => {
  const truth = inventedTerms(NOTE, TRANSCRIPT);
  const flags = ['128/70', '1.000', '5', '7', '30', 'diabetes', 'Diabetes', 'hypertension', 'rubs', 'lisinopril'];
  const c = compareFlags(flags, { note: NOTE, transcript: TRANSCRIPT, truth }, () => 'medicine');
  const verdict = (text: string) => c.flags.find((f) => f.text === text)!;
  it('judges each flag', () => {
    expect(['128/70', '1.000', 'diabetes', 'Diabetes'].map((f) => verdict(f).verdict)).toEqual(['caught', 'caught', 'caught', 'caught']);
    // '5' of the invented 0.5 is not its value; '7' of the said 38.7 flags something said.
    expect(verdict('5')).toMatchObject({ verdict: 'unjudged', why: expect.stringMatching(/invented decimal 0\.5/) });
    expect(verdict('7')).toMatchObject({ verdict: 'false alarm', why: expect.stringMatching(/decimal 38\.7/) });
    expect(verdict('30')).toMatchObject({ verdict: 'false alarm', why: 'said' });
    expect(verdict('hypertension')).toMatchObject({ kind: 'diagnosis', verdict: 'false alarm' });
    expect(verdict('lisinopril')).toMatchObject({ kind: 'medicine', verdict: 'false alarm' });
    // 'rubs' is in no lexicon and nobody said it: the ground truth cannot tell.
    expect(verdict('rubs')).toMatchObject({ kind: 'medicine', verdict: 'unjudged' });
  });
  it('counts by kind, with precision over judged flags and recall over invented terms', () => {
    const numbers = countsOf(c, 'number');
    expect(numbers).toEqual({ invented: 5, caught: 2, missed: 3, flags: 5, caughtFlags: 2, falseAlarms: 2, unjudged: 1 });
    expect(precision(numbers)).toBe(0.5);
    expect(recall(numbers)).toBe(0.4);
    expect(countsOf(c, 'diagnosis')).toEqual({ invented: 3, caught: 1, missed: 2, flags: 3, caughtFlags: 2, falseAlarms: 1, unjudged: 0 });
  });
});
