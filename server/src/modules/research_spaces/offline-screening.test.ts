import { describe, expect, it } from 'vitest';
import { classify, type Criterion } from './criteria.js';
import { extractCriteria, parseModelCriteria } from './criteria-extraction.js';
import { screenOffline } from './offline-screener.js';
import { parseModelScreening } from './screener.js';

const c = (id: string, definition: string, type: Criterion['type'] = 'critical_inclusion', needsReview = false): Criterion => ({
  id,
  definition,
  type,
  needsReview,
});
const today = new Date('2026-11-22T12:00:00Z');

describe('offline screening', () => {
  const record = [
    'Relatório clínico — Doente 0042',
    'Data de nascimento: 14/03/1968',
    'Diagnóstico: diabetes mellitus tipo 2 desde 2015.',
    'HbA1c 8,2 % (outubro 2026). eGFR 74 mL/min.',
    'Nega tabagismo. Sem insulinoterapia prévia.',
  ].join('\n');

  it('compares ages and lab values as numbers, from a date of birth too', () => {
    const verdicts = screenOffline(
      [
        c('age', 'Idade entre 18 e 75 anos'),
        c('old', 'Age ≥ 80 years'),
        c('a1c', 'HbA1c between 7% and 10%'),
        c('gfr', 'eGFR < 30 mL/min', 'critical_exclusion'),
      ],
      record,
      today,
    );
    expect(verdicts.map((v) => [v.criterion_id, v.verdict])).toEqual([
      ['age', 'met'],
      ['old', 'not_met'],
      ['a1c', 'met'],
      ['gfr', 'not_met'],
    ]);
    // The evidence is the record's own line, quoted; the age is worked out from it (58 on the test's date).
    expect(verdicts[0]!.evidence).toBe('Data de nascimento: 14/03/1968');
    expect(verdicts[2]!.evidence).toBe('HbA1c 8,2 % (outubro 2026).');
  });

  it("allows for OCR's usual confusions in a lab value's name", () => {
    const [v] = screenOffline([c('a1c', 'HbA1c between 7% and 10%')], 'Type 2 diabetes.\nHbAic 9,1 %.', today);
    expect(v).toMatchObject({ verdict: 'met', evidence: 'HbAic 9,1 %.' });
  });

  it('reads a mention as present, a negated one as absent, and says unclear when the documents are silent', () => {
    const verdicts = screenOffline(
      [
        c('dm', 'Diagnóstico de diabetes mellitus tipo 2'),
        c('smoke', 'Tabagismo ativo', 'critical_exclusion'),
        c('insulin', 'Sem insulinoterapia prévia'),
        c('preg', 'Gravidez ou amamentação', 'critical_exclusion'),
      ],
      record,
      today,
    );
    expect(Object.fromEntries(verdicts.map((v) => [v.criterion_id, v.verdict]))).toEqual({ dm: 'met', smoke: 'not_met', insulin: 'met', preg: 'unclear' });
    expect(verdicts.find((v) => v.criterion_id === 'preg')!.evidence).toBe('');
  });

  it('screens English criteria against records in Portuguese, German or Spanish for the concepts it knows', () => {
    const criteria = [
      c('dm', 'Type 2 diabetes mellitus'),
      c('preg', 'Pregnancy or breastfeeding', 'critical_exclusion'),
      c('smoke', 'Current smoker', 'critical_exclusion'),
      c('hf', 'Heart failure', 'critical_exclusion'),
    ];
    const verdicts = (doc: string) => Object.fromEntries(screenOffline(criteria, doc, today).map((v) => [v.criterion_id, v.verdict]));
    expect(verdicts(record)).toMatchObject({ dm: 'met', smoke: 'not_met', hf: 'unclear' });
    expect(verdicts('Typ-2-Diabetes seit 2010. Keine Herzinsuffizienz. Raucherin.')).toEqual({ dm: 'met', preg: 'unclear', smoke: 'met', hf: 'not_met' });
    // One of 'pregnancy or breastfeeding' written plainly is enough.
    expect(verdicts('Diabetes mellitus tipo 2. Embarazada de 12 semanas.')).toMatchObject({ dm: 'met', preg: 'met' });
  });

  it('classifies: a failed critical criterion rules out, all satisfied is fit, otherwise possible', () => {
    const criteria = [c('i', 'x'), c('e', 'y', 'critical_exclusion'), c('n', 'z', 'non_critical_inclusion')];
    const with_ = (i: string, e: string, n: string) =>
      classify(criteria, [
        { criterion_id: 'i', verdict: i, evidence: '' },
        { criterion_id: 'e', verdict: e, evidence: '' },
        { criterion_id: 'n', verdict: n, evidence: '' },
      ] as never);
    expect(with_('met', 'not_met', 'met')).toEqual({ preEvaluation: 'fit', met: 3, status: 'in_review' });
    expect(with_('met', 'met', 'met')).toMatchObject({ preEvaluation: 'not_approved', met: 2 });
    expect(with_('met', 'not_met', 'not_met')).toMatchObject({ preEvaluation: 'possible', status: 'in_review' });
    expect(with_('met', 'unclear', 'met')).toMatchObject({ preEvaluation: 'possible', status: 'requires_review' });
    expect(classify([c('i', 'x', 'critical_inclusion', true)], [{ criterion_id: 'i', verdict: 'met', evidence: '' }]).status).toBe('requires_review');
  });
});

describe('criteria from a description', () => {
  it('takes the lists under inclusion and exclusion headings, in any of the four languages', () => {
    const pt =
      'Estudo de fase III.\n\nCritérios de inclusão:\n- Idade entre 18 e 75 anos\n- Diabetes tipo 2\n\nCritérios de exclusão:\n1. Gravidez\n2) eGFR < 30\n\nDesenho:\nAleatorizado.';
    expect(extractCriteria(pt)).toEqual([
      { definition: 'Idade entre 18 e 75 anos', type: 'critical_inclusion' },
      { definition: 'Diabetes tipo 2', type: 'critical_inclusion' },
      { definition: 'Gravidez', type: 'critical_exclusion' },
      { definition: 'eGFR < 30', type: 'critical_exclusion' },
    ]);
    expect(extractCriteria('Einschlusskriterien: Alter ≥ 18 Jahre\nAusschlusskriterien:\n• Schwangerschaft')).toEqual([
      { definition: 'Alter ≥ 18 Jahre', type: 'critical_inclusion' },
      { definition: 'Schwangerschaft', type: 'critical_exclusion' },
    ]);
    expect(extractCriteria('A trial of a new drug for hypertension.')).toEqual([]);
  });

  it("keeps only well-formed criteria from a model's answer and refuses an answer that is not JSON", () => {
    expect(parseModelCriteria('Here: {"criteria":[{"definition":"Adults","type":"critical_inclusion"},{"definition":"x","type":"weird"}]}')).toEqual([
      { definition: 'Adults', type: 'critical_inclusion' },
    ]);
    expect(parseModelCriteria('I cannot help with that')).toBeUndefined();
  });

  it('leaves a criterion the model skipped unclear rather than guessing', () => {
    const s = parseModelScreening('{"criteria":[{"id":"a","verdict":"met","evidence":"HbA1c 8.2"},{"id":"b","verdict":"maybe"}],"explanation":"Ok."}', [
      c('a', 'x'),
      c('b', 'y'),
      c('d', 'z'),
    ]);
    expect(s!.assessments.map((a) => a.verdict)).toEqual(['met', 'unclear', 'unclear']);
    expect(parseModelScreening('no', [c('a', 'x')])).toBeUndefined();
  });
});
