import { describe, expect, it } from 'vitest';
import { screenOffline } from './offline-screener.js';
import { sentences } from '../../clinical/record-text.js';

const today = new Date('2026-11-22T12:00:00Z');

describe("a record's sentences", () => {
  it('never split inside a number, after an abbreviation or a list number, and join lines a PDF wrapped', () => {
    const text =
      'HbA1c 7,5 % (Oct. 2026). TFGe 48 mL/min/1,73m2. Seen by Dr. Silva, z. B. today.\nCurrently pregnant, 12 weeks of\ngestation.\n1. Diabetes tipo 2\n2. eGFR 62 mL/min/1.73 m².';
    expect(sentences(text)).toEqual([
      'HbA1c 7,5 % (Oct. 2026).',
      'TFGe 48 mL/min/1,73m2.',
      'Seen by Dr. Silva, z. B. today.',
      'Currently pregnant, 12 weeks of gestation.',
      '1. Diabetes tipo 2',
      '2. eGFR 62 mL/min/1.73 m².',
    ]);
  });

  it('keep a heading apart from the line under it', () => {
    expect(sentences('Antecedentes pessoais\ninsulinoterapia desde 2018.')).toEqual(['Antecedentes pessoais', 'insulinoterapia desde 2018.']);
  });

  it('leave file names out: a file name is never evidence', () => {
    const documents = '=== insulin-pregnant.pdf ===\nNo insulin therapy to date.\n\n=== smoker.pdf ===\nType 2 diabetes.';
    expect(sentences(documents)).toEqual(['No insulin therapy to date.', 'Type 2 diabetes.']);
    const verdicts = screenOffline(
      [
        { id: 'ins', definition: 'Current insulin use', type: 'critical_exclusion', needsReview: false },
        { id: 'preg', definition: 'Pregnancy or breastfeeding', type: 'critical_exclusion', needsReview: false },
        { id: 'smoke', definition: 'Current smoking', type: 'critical_exclusion', needsReview: false },
      ],
      documents,
      today,
    );
    for (const v of verdicts) expect(v.evidence).not.toMatch(/\.pdf|===/);
    expect(verdicts.map((v) => v.verdict)).toEqual(['not_met', 'unclear', 'unclear']);
  });
});

describe('lines a PDF wrapped after a word no sentence ends with', () => {
  it('joins them whatever the next line starts with, in the four languages, but not before a list item', () => {
    expect(sentences('He was admitted on\n03/10/2026 with heart failure.')).toEqual(['He was admitted on 03/10/2026 with heart failure.']);
    expect(sentences('Seguida na consulta de\nEndocrinologia desde 2019.')).toEqual(['Seguida na consulta de Endocrinologia desde 2019.']);
    expect(sentences('Die Patientin wurde am\n03.10.2026 aufgenommen.')).toEqual(['Die Patientin wurde am 03.10.2026 aufgenommen.']);
    expect(sentences('Ingresó en el servicio de\nCardiología el 3 de octubre.')).toEqual(['Ingresó en el servicio de Cardiología el 3 de octubre.']);
    expect(sentences('Medication taken for\n- metformin 500 mg')).toEqual(['Medication taken for', '- metformin 500 mg']);
  });
});

describe('German ordinals', () => {
  it('end no sentence after their article or preposition', () => {
    expect(sentences('Schwanger in der 12. SSW. Keine Beschwerden.')).toEqual(['Schwanger in der 12. SSW.', 'Keine Beschwerden.']);
    expect(sentences('Fieber seit dem 3. Tag nach der Operation.')).toEqual(['Fieber seit dem 3. Tag nach der Operation.']);
    expect(sentences('Befund vom 12. Oktober 2026.')).toEqual(['Befund vom 12. Oktober 2026.']);
  });
});

describe('a long scan without full stops', () => {
  it('is cut into sentences of bounded length, not read as one', () => {
    const scan = Array.from({ length: 10_000 }, (_, i) => `patient seen on day ${i} with`).join('\n');
    const read = sentences(scan);
    expect(read.length).toBeGreaterThan(100);
    expect(Math.max(...read.map((s) => s.length))).toBeLessThan(2100);
  });
});
