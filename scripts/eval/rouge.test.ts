import { describe, expect, it } from 'vitest';
import { porterStem } from './porter.js';
import { lcsLength, rouge, rougeN, tokensForRouge } from './rouge.js';

describe('tokens as rouge-score makes them', () => {
  it('lower-cases, keeps [a-z0-9] runs and stems words of more than three letters', () => {
    expect(tokensForRouge('BP 128/72, fractures; the Cats!', false)).toEqual(['bp', '128', '72', 'fractures', 'the', 'cats']);
    expect(tokensForRouge('Fractures of both cats sat', true)).toEqual(['fractur', 'of', 'both', 'cat', 'sat']);
  });
});

describe('Porter stemmer (original algorithm)', () => {
  it('gives the stems of the paper and of NLTK ORIGINAL_ALGORITHM', () => {
    const cases: Record<string, string> = {
      caresses: 'caress',
      ponies: 'poni',
      ties: 'ti',
      cats: 'cat',
      feed: 'feed',
      agreed: 'agre',
      plastered: 'plaster',
      bled: 'bled',
      motoring: 'motor',
      sing: 'sing',
      conflated: 'conflat',
      troubled: 'troubl',
      sized: 'size',
      hopping: 'hop',
      falling: 'fall',
      filing: 'file',
      happy: 'happi',
      sky: 'sky',
      relational: 'relat',
      conditional: 'condit',
      generalization: 'gener',
      hopefulness: 'hope',
      electrical: 'electr',
      adjustment: 'adjust',
      adoption: 'adopt',
      hypertension: 'hypertens',
      medications: 'medic',
      dying: 'dy',
      news: 'new',
      controlling: 'control',
      roll: 'roll',
      cease: 'ceas',
    };
    for (const [word, stem] of Object.entries(cases)) expect(porterStem(word), word).toBe(stem);
  });
});

describe('ROUGE against hand-computed examples', () => {
  // reference: the cat sat on the mat (6 tokens); candidate: the cat lay on the mat (6 tokens)
  const ref = 'the cat sat on the mat'.split(' ');
  const cand = 'the cat lay on the mat'.split(' ');
  it('ROUGE-1: 5 of 6 unigrams shared (the ×2, cat, on, mat): P = R = 5/6', () => {
    expect(rougeN(cand, ref, 1)).toBeCloseTo((5 / 6) * 100, 6);
  });
  it('ROUGE-2: bigrams "the cat", "on the", "the mat" shared, 3 of 5 each side', () => {
    expect(rougeN(cand, ref, 2)).toBeCloseTo((3 / 5) * 100, 6);
  });
  it('ROUGE-L: LCS "the cat on the mat" = 5', () => {
    expect(lcsLength(cand, ref)).toBe(5);
    expect(rouge('The cat lay on the mat.', 'the cat sat on the mat', false).rougeL).toBeCloseTo((5 / 6) * 100, 6);
  });
  it('unequal lengths: candidate "a b c" against reference "a b d e": R1 P=2/3 R=2/4, F=4/7', () => {
    const r = rouge('a b c', 'a b d e', false);
    expect(r.rouge1).toBeCloseTo(((2 * (2 / 3) * (2 / 4)) / (2 / 3 + 2 / 4)) * 100, 6);
    expect(r.rouge1).toBeCloseTo((4 / 7) * 100, 6);
    // one shared bigram "a b": P = 1/2, R = 1/3, F = 0.4
    expect(r.rouge2).toBeCloseTo(40, 6);
    expect(r.rougeL).toBeCloseTo((4 / 7) * 100, 6);
  });
  it('LCS is a subsequence, not a substring: "a x b y c" vs "a b c" = 3', () => {
    expect(lcsLength('a x b y c'.split(' '), 'a b c'.split(' '))).toBe(3);
  });
  it('counts repeated n-grams at most as often as the reference has them', () => {
    // candidate "the the the" vs reference "the cat": overlap min(3,1) = 1, P = 1/3, R = 1/2, F = 0.4
    expect(rouge('the the the', 'the cat', false).rouge1).toBeCloseTo(40, 6);
  });
  it('stemming makes inflections one token', () => {
    expect(rouge('fractures healed', 'fracture heals', true).rouge1).toBe(100);
    expect(rouge('fractures healed', 'fracture heals', false).rouge1).toBe(0);
  });
  it('is 0 for an empty side', () => {
    expect(rouge('', 'a b', false)).toEqual({ rouge1: 0, rouge2: 0, rougeL: 0 });
  });
});
