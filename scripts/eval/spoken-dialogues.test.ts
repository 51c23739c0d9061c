import { describe, expect, it } from 'vitest';
import { wordErrors } from '../../server/src/ai/word-error-rate.js';
import {
  alignWords,
  calibration,
  cutParts,
  gate,
  integerWords,
  isNumberWord,
  medicineMentions,
  multisetRecall,
  opening,
  silences,
  speakable,
  timedReference,
} from './spoken-dialogues.js';

describe('speakable text', () => {
  it('says numbers, blood pressures and percentages in words', () => {
    expect(integerWords(120)).toBe('one hundred twenty');
    expect(integerWords(2024)).toBe('two thousand twenty four');
    expect(speakable('bp 120/80 , sats 98% , temp 98.6 .')).toBe(
      'bp one hundred twenty over eighty , sats ninety eight percent , temp ninety eight point six .',
    );
    expect(speakable('[doctor] take 2-3 tablets & rest')).toBe('take two to three tablets and rest');
  });

  it('takes the opening turns up to a number of words', () => {
    const turns = [
      { speaker: 'clinician' as const, text: 'hi , how are you ?' },
      { speaker: 'patient' as const, text: 'fine thanks' },
      { speaker: 'clinician' as const, text: 'what brings you in today' },
    ];
    expect(opening(turns, 6).map((t) => t.text)).toEqual(['hi , how are you ?', 'fine thanks']);
    // A long first turn is cut rather than dropped.
    expect(opening([{ speaker: 'clinician', text: 'one two three four five' }], 3)).toEqual([{ speaker: 'clinician', text: 'one two three' }]);
  });
});

describe('cutting into parts', () => {
  it('finds silences in PCM', () => {
    const rate = 1000;
    const samples = new Int16Array(3000);
    samples.fill(5000, 0, 1000);
    samples.fill(5000, 1500, 3000);
    expect(silences(samples, rate)).toEqual([{ startMs: 1000, endMs: 1500 }]);
  });

  it('cuts at the longest pause in each 5–10 s window, else at 10 s', () => {
    const quiet = [
      { startMs: 3000, endMs: 3500 }, // too early
      { startMs: 6000, endMs: 6200 },
      { startMs: 8000, endMs: 8600 },
    ];
    expect(cutParts(25_000, quiet)).toEqual([
      { startMs: 0, endMs: 8300 },
      { startMs: 8300, endMs: 18_300 },
      { startMs: 18_300, endMs: 25_000 },
    ]);
    expect(cutParts(7000, quiet)).toEqual([{ startMs: 0, endMs: 7000 }]);
  });

  it('places reference words in their turn by letters', () => {
    const words = timedReference([
      { speaker: 'clinician', text: 'aa bb', startMs: 0, endMs: 600 },
      { speaker: 'patient', text: 'yes', startMs: 1000, endMs: 1400 },
    ]);
    expect(words.map((w) => [w.word, w.speaker, Math.round(w.atMs)])).toEqual([
      ['aa', 'clinician', 150],
      ['bb', 'clinician', 450],
      ['yes', 'patient', 1200],
    ]);
  });
});

describe('alignment', () => {
  it('charges each error to a reference word and agrees with wordErrors', () => {
    const ref = 'do you take any medicines'.split(' ');
    const hyp = 'do you the codeine extra'.split(' ');
    const a = alignWords(ref, hyp);
    expect(a.errors).toBe(wordErrors(ref.join(' '), hyp.join(' ')).errors);
    expect(a.refErrors.reduce((s, n) => s + n, 0)).toBe(a.errors);
    expect(a.hypCorrect).toEqual([true, true, false, false, false]);
  });

  it('charges insertions before the first word to it', () => {
    const a = alignWords(['yes'], ['oh', 'yes']);
    expect(a.refErrors).toEqual([1]);
    expect(a.hypCorrect).toEqual([false, true]);
    expect(alignWords([], ['oh']).errors).toBe(1);
  });
});

describe('medicines and numbers', () => {
  it('finds medicine names, two-word names and shared endings, with their confidence', () => {
    const heard = [
      { text: 'take', confidence: 0.9 },
      { text: 'codeine', confidence: 0.4 },
      { text: 'and', confidence: 1 },
      { text: 'vitamin', confidence: 0.8 },
      { text: 'd', confidence: 0.6 },
      { text: 'and', confidence: 1 },
      { text: 'zapoprazole', confidence: 0.99 },
    ];
    expect(medicineMentions(heard)).toEqual([
      { name: 'codeine', confidence: 0.4 },
      { name: 'vitamin d', confidence: 0.6 },
      { name: 'zapoprazole', confidence: 0.99 },
    ]);
    expect(medicineMentions([{ text: 'medicines' }, { text: 'program' }])).toEqual([]);
  });

  it('counts numbers recalled as multisets', () => {
    expect(['twenty', 'five', 'hello', '12'].filter(isNumberWord)).toEqual(['twenty', 'five', '12']);
    expect(multisetRecall(['five', 'five', 'ten'], ['five', 'ten', 'ten'])).toEqual({ found: 2, total: 3 });
  });
});

describe('confidence', () => {
  const words = [
    { confidence: 0.1, correct: false },
    { confidence: 0.3, correct: true },
    { confidence: 0.9, correct: true },
    { confidence: 1, correct: true },
  ];
  it('buckets words by confidence', () => {
    expect(calibration(words).map((b) => [b.words, b.correct])).toEqual([
      [1, 0],
      [1, 1],
      [0, 0],
      [0, 0],
      [2, 2],
    ]);
  });
  it('gives the share marked uncertain and the precision of the rest', () => {
    expect(gate(words, 0.5)).toEqual({ uncertain: 0.5, keptPrecision: 1 });
    expect(gate(words, 0)).toEqual({ uncertain: 0, keptPrecision: 0.75 });
  });
});
