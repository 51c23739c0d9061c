import { describe, expect, it } from 'vitest';
import { indexPassages, rankPassages, termCoverage, termsOf } from './passage-ranking.js';

const record = [
  'Patient seen in the outpatient clinic for follow-up.',
  'Known DM tipo 2 since 2015, on metformin 1000 mg twice daily.',
  'Blood pressure 132/84 mmHg.',
  'Previous myocardial infarction in 2019 with stent to the LAD.',
  'Lives with his wife and walks daily.',
];

describe('passages ranked for a criterion', () => {
  it('puts the sentence speaking to the criterion first, with the words that matched as the record writes them', () => {
    const [best] = rankPassages('History of myocardial infarction or coronary stent', record);
    expect(best!.text).toBe(record[3]);
    expect(best!.matched).toEqual(expect.arrayContaining(['myocardial infarction', 'stent']));
  });

  it('finds a concept whatever the language writes it', () => {
    const [best] = rankPassages('Type 2 diabetes mellitus treated with metformin', record);
    expect(best!.text).toBe(record[1]);
    expect(best!.matched).toEqual(expect.arrayContaining(['DM tipo 2', 'metformin']));
  });

  it('answers a question about a broader concept with the narrower one', () => {
    const [best] = rankPassages('History of diabetes', record);
    expect(best).toMatchObject({ text: record[1], matched: ['DM tipo 2'] });
  });

  it('reads a long record once for many criteria, equal scores in the record’s order', () => {
    const long = Array.from({ length: 5000 }, (_, i) => `Visit ${i}: type 2 diabetes, HbA1c ${i % 10} %, no chest pain.`);
    const index = indexPassages(long);
    for (let i = 0; i < 20; i++) expect(rankPassages(`Heart failure or diabetes, criterion ${i}`, index).map((p) => p.text)).toEqual(long.slice(0, 3));
  });

  it('returns nothing that shares no word with the criterion, and at most the number asked for', () => {
    expect(rankPassages('Known HIV infection', record)).toEqual([]);
    expect(rankPassages('the and of with', record)).toEqual([]);
    expect(rankPassages('daily', record, 1)).toHaveLength(1);
  });

  it('prefers the rarer word of the record when two sentences match one word each', () => {
    const ranked = rankPassages('daily insulin pump', [...record, 'Insulin pump started last year.']);
    expect(ranked[0]!.text).toBe('Insulin pump started last year.');
  });

  it('leaves numbers and stopwords out of the terms', () => {
    expect(termsOf('Age ≥ 18 years with the disease').map((t) => t.key)).toEqual(['diseas']);
  });
});

describe('coverage of a trial by a record', () => {
  it('is higher for the record of the condition than for an unrelated one', () => {
    const trial = 'Heart failure with reduced ejection fraction';
    expect(termCoverage(trial, 'Chronic heart failure, ejection fraction 30 %.')).toBeGreaterThan(0.75);
    expect(termCoverage(trial, 'Asthma since childhood, on inhaled steroids.')).toBe(0);
    expect(termCoverage('', 'anything')).toBe(0);
  });
});
