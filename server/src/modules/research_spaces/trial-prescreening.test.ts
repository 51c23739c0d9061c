/**
 * The issue 'Trial pre-screening a research coordinator can trust': a type 2 diabetes trial (age 40–75, HbA1c
 * 7–10 %, exclusions: pregnancy or breastfeeding, eGFR < 30, insulin use, current smoking) screened offline
 * against realistic records in the four languages.
 */
import { describe, expect, it } from 'vitest';
import { classify, type Criterion } from './criteria.js';
import { extractCriteria } from './criteria-extraction.js';
import { screenOffline } from './offline-screener.js';
import { DOCUMENT_SEPARATOR, sentences } from '../../clinical/record-text.js';

const today = new Date('2026-11-22T12:00:00Z');
const c = (id: string, definition: string, type: Criterion['type'] = 'critical_inclusion'): Criterion => ({ id, definition, type, needsReview: false });

const trial = [
  c('age', 'Age 40 to 75 years'),
  c('dm', 'Diagnosis of type 2 diabetes'),
  c('a1c', 'HbA1c 7–10 %'),
  c('preg', 'Pregnancy or breastfeeding', 'critical_exclusion'),
  c('gfr', 'eGFR < 30 mL/min/1.73 m²', 'critical_exclusion'),
  c('ins', 'Current insulin use', 'critical_exclusion'),
  c('smoke', 'Current smoking', 'critical_exclusion'),
];
const screen = (documents: string, criteria = trial) => Object.fromEntries(screenOffline(criteria, documents, today).map((a) => [a.criterion_id, a]));
const verdicts = (documents: string, criteria = trial) => Object.fromEntries(Object.entries(screen(documents, criteria)).map(([id, a]) => [id, a.verdict]));

describe('trial pre-screening offline', () => {
  it('never reads a file name as evidence (issue 1)', () => {
    const documents = ['=== insulin-pregnant.pdf ===', 'No insulin therapy to date.'].join('\n');
    const result = screen(documents);
    expect(result.ins).toMatchObject({ verdict: 'not_met', evidence: 'No insulin therapy to date.' });
    expect(result.preg!.verdict).toBe('unclear');
    for (const a of Object.values(result)) expect(a.evidence).not.toContain('insulin-pregnant');
  });

  it('excludes an explicitly pregnant patient, quoting the whole sentence a PDF wrapped (issues 2 and 6)', () => {
    const documents = 'Female, 41 years old.\nType 2 diabetes since 2019.\nCurrently pregnant, 12 weeks of\ngestation. Not breastfeeding.';
    const result = screen(documents);
    expect(result.preg).toMatchObject({ verdict: 'met', evidence: 'Currently pregnant, 12 weeks of gestation.' });
    expect(classify(trial, Object.values(result)).preEvaluation).toBe('not_approved');
    expect(verdicts('Schwanger in der 12. Woche.').preg).toBe('met');
    expect(verdicts('Grávida de 12 semanas.').preg).toBe('met');
    expect(verdicts('Em amamentação desde março.').preg).toBe('met');
    expect(verdicts('Lactancia materna actual.').preg).toBe('met');
    expect(verdicts('Not pregnant, not breastfeeding.').preg).toBe('not_met');
  });

  it('evaluates the age criterion in every common phrasing (issue 3)', () => {
    const eightyTwo = 'Patient aged 82 years.';
    const fiftyEight = 'Idade: 58 anos.';
    for (const definition of [
      'Age 40 to 75 years',
      'Age 40–75 years',
      'Age between 40 and 75 years',
      'Age ≥ 40 and ≤ 75 years',
      'Idade entre 40 e 75 anos',
      'Alter 40 bis 75 Jahre',
      'Edad de 40 a 75 años',
      'Adults 40-75 years',
    ]) {
      expect(verdicts(eightyTwo, [c('age', definition)]).age, definition).toBe('not_met');
      expect(verdicts(fiftyEight, [c('age', definition)]).age, definition).toBe('met');
    }
    expect(verdicts('Idade: 17 anos.', [c('age', '18 anos ou mais')]).age).toBe('not_met');
    expect(verdicts('Idade: 18 anos.', [c('age', '18 anos ou mais')]).age).toBe('met');
    expect(verdicts('Edad: 30 años.', [c('age', 'Mayores de 18 años')]).age).toBe('met');
    expect(verdicts('Alter: 76 Jahre.', [c('age', 'Alter ≥ 18 und ≤ 75 Jahre')]).age).toBe('not_met');
  });

  it('generates the age criterion from trial text and evaluates it', () => {
    const [age] = extractCriteria('Inclusion criteria:\n- Age 40 to 75 years\n- Type 2 diabetes');
    expect(verdicts('Male, 82 years old.', [c('age', age!.definition)]).age).toBe('not_met');
  });

  it('works the age out from the date of birth and the record date when no age is written', () => {
    const pt = 'Data da consulta: 10/01/2020.\nData de nascimento: 14/03/1945.';
    expect(screen(pt).age).toMatchObject({ verdict: 'met', evidence: 'Data de nascimento: 14/03/1945. Data da consulta: 10/01/2020.' }); // 74 then
    expect(verdicts('Data de nascimento: 14/03/1945.').age).toBe('not_met'); // 81 today
    expect(verdicts('Geburtsdatum: 02.05.1990\nBefund vom 01.06.2026').age).toBe('not_met');
    expect(verdicts('Fecha de nacimiento: 3 de mayo de 1970. Fecha del informe: 12/09/2026.').age).toBe('met');
    expect(verdicts('Date of birth: March 14, 1980. Seen on 2026-10-02.').age).toBe('met');
  });

  it('reads negation and former use as absence, in the four languages (issue 4)', () => {
    const smoking = (doc: string) => verdicts(doc).smoke;
    for (const doc of [
      'Non-smoker.',
      'Former smoker, quit in 2015.',
      'Ex-smoker.',
      'Denies smoking.',
      'Never smoked.',
      'Não fumador.',
      'Ex-fumador desde 2010.',
      'Nega hábitos tabágicos.',
      'Sem tabagismo.',
      'Deixou de fumar em 2018.',
      'Nichtraucher.',
      'Kein Nikotinabusus.',
      'Ehemaliger Raucher.',
      'No fumador.',
      'Niega tabaquismo.',
      'Exfumadora desde 2012.',
      'Tabagismo: não.',
    ])
      expect(smoking(doc), doc).toBe('not_met');
    for (const doc of ['Current smoker, 20 cigarettes a day.', 'Fumador ativo, 1 maço por dia.', 'Raucherin.', 'Fumadora de 10 cigarrillos al día.'])
      expect(smoking(doc), doc).toBe('met');
    expect(verdicts('Smoking: unknown.').smoke).toBe('unclear');
    const insulin = (doc: string) => verdicts(doc).ins;
    for (const doc of [
      'No insulin therapy to date.',
      'Sem insulinoterapia.',
      'Nunca fez insulina.',
      'Keine Insulintherapie.',
      'Sin insulina.',
      'Insulin stopped in 2020, now on metformin.',
    ])
      expect(insulin(doc), doc).toBe('not_met');
    for (const doc of ['Insulin glargine 20 U at night.', 'Em insulinoterapia basal.', 'Insulintherapie seit 2018.', 'En tratamiento con insulina.'])
      expect(insulin(doc), doc).toBe('met');
    // A negated verb after the thing it is about, and a heading that names it before the answer.
    for (const doc of ['Insulin has not been started.', 'Insulin wurde nicht begonnen.', 'A insulina não foi iniciada.'])
      expect(insulin(doc), doc).toBe('not_met');
    expect(smoking('Smoking status: non-smoker.')).toBe('not_met');
    expect(verdicts('Mother with type 2 diabetes.').dm).toBe('unclear');
  });

  it('reads type 1 diabetes as not type 2, in the four languages (issue 4)', () => {
    for (const doc of [
      'Type 1 diabetes since childhood.',
      'Type 1 diabetic on a pump.',
      'Diabetes mellitus tipo 1 desde os 12 anos.',
      'DM1.',
      'Typ-1-Diabetes seit 1999.',
      'Diabetes mellitus tipo 1.',
    ])
      expect(screen(doc).dm, doc).toMatchObject({ verdict: 'not_met', evidence: doc });
    for (const doc of ['DM2 desde 2015.', 'Diabetes mellitus tipo 2.', 'Typ-2-Diabetes.', 'Type 2 diabetes mellitus.', 'History of type 2 diabetes.', 'T2DM.'])
      expect(verdicts(doc).dm, doc).toBe('met');
    expect(verdicts('Diabetes mellitus.').dm).toBe('unclear');
  });

  it('reads lab values under local names, decimal commas and unit variants (issue 4)', () => {
    const labs = (doc: string) => verdicts(doc);
    expect(screen('TFGe 48 mL/min/1,73m2.').gfr).toMatchObject({ verdict: 'not_met', evidence: 'TFGe 48 mL/min/1,73m2.' });
    expect(labs('eGFR (CKD-EPI 2021): 25 mL/min/1.73 m².').gfr).toBe('met');
    expect(labs('Taxa de filtração glomerular estimada: 28 mL/min/1,73 m2.').gfr).toBe('met');
    expect(labs('GFR 62 ml/min.').gfr).toBe('not_met');
    expect(labs('TFG 29,5 mL/min/1,73 m².').gfr).toBe('met');
    expect(labs('HbA1c 7,5 %.').a1c).toBe('met');
    expect(labs('A1c: 10.4%').a1c).toBe('not_met');
    expect(labs('Hemoglobina glicada 8,1 %.').a1c).toBe('met');
    expect(labs('Hemoglobina glicosilada (12/10/2026): 6,4 %.').a1c).toBe('not_met');
    expect(labs('HbA1c 64 mmol/mol.').a1c).toBe('met'); // 8.0 %
    expect(labs('HbA1c pending.').a1c).toBe('unclear');
  });

  it('quotes whole sentences', () => {
    const documents = 'Dr. Silva saw the patient today. HbA1c 8,2 % (Oct. 2026), eGFR 74 mL/min/1.73 m². Type 2 diabetes since 2015, on metformin 1.000 mg.';
    const result = screen(documents);
    const whole = sentences(documents);
    for (const a of Object.values(result)) if (a.evidence) for (const part of [a.evidence]) expect(whole.some((s) => part.includes(s))).toBe(true);
    expect(result.a1c!.evidence).toBe('HbA1c 8,2 % (Oct. 2026), eGFR 74 mL/min/1.73 m².');
    expect(result.dm!.evidence).toBe('Type 2 diabetes since 2015, on metformin 1.000 mg.');
  });

  it('screens a record split over two files, one scanned (OCR), one in Portuguese', () => {
    const scanned = 'RELATÓRIO CLÍNICO\nData de nascimento: 02/07/1961\nDiagnóstico: DM2 desde 2014,\nsob metformina.';
    const labs = 'Análises de 15/10/2026: HbAic 8,4 %; TFGe 71 mL/min/1,73 m2.\nNão fumador. Sem insulinoterapia.';
    const result = screen([scanned, labs].join(DOCUMENT_SEPARATOR));
    expect(Object.fromEntries(Object.entries(result).map(([id, a]) => [id, a.verdict]))).toEqual({
      age: 'met',
      dm: 'met',
      a1c: 'met',
      // 65 on the record's date: past the age of pregnancy, as the coordinator would read it.
      preg: 'not_met',
      gfr: 'not_met',
      ins: 'not_met',
      smoke: 'not_met',
    });
    expect(result.dm!.evidence).toBe('Diagnóstico: DM2 desde 2014, sob metformina.');
    expect(result.preg!.evidence).toBe('Data de nascimento: 02/07/1961 Análises de 15/10/2026: HbAic 8,4 %; TFGe 71 mL/min/1,73 m2.');
  });
});

describe('trial pre-screening with a model (TrialGPT-style answers)', () => {
  const record = ['No insulin therapy to date.', 'Currently pregnant, 12 weeks of gestation.', 'Type 2 diabetes since 2015.'];
  const criteria = [
    c('dm', 'Type 2 diabetes'),
    c('preg', 'Pregnancy or breastfeeding', 'critical_exclusion'),
    c('ins', 'Current insulin use', 'critical_exclusion'),
    c('smoke', 'Current smoking', 'critical_exclusion'),
  ];

  it('asks for a label, an explanation and sentence ids, and quotes the record by those ids only', async () => {
    const { screenPatient } = await import('./screener.js');
    let asked = '';
    const generator = {
      info: { engine: 'openai', model: 'scripted', usesAi: true },
      write: async function* () {},
      converse: async function* (conversation: { system: string; messages: { content: string }[] }) {
        asked = conversation.system + conversation.messages[0]!.content;
        yield JSON.stringify({
          criteria: [
            { id: 'dm', label: 'included', explanation: 'Type 2 since 2015.', sentence_ids: [2] },
            { id: 'preg', label: 'excluded', explanation: 'Pregnant.', sentence_ids: [1, 99], evidence: 'She is 30 weeks pregnant' },
            { id: 'ins', label: 'not excluded', explanation: 'No insulin.', sentence_ids: [] },
            { id: 'smoke', label: 'not enough information', explanation: 'Not said.', sentence_ids: [] },
          ],
          explanation: 'Excluded by pregnancy.',
        });
      },
    };
    const documents = [
      '=== insulin-pregnant.pdf ===',
      'No insulin therapy to date.',
      'Currently pregnant, 12 weeks of',
      'gestation.',
      DOCUMENT_SEPARATOR,
      'Type 2 diabetes since 2015.',
    ].join('\n');
    const screening = await screenPatient(generator as never, criteria, documents, 'en');
    expect(asked).toContain('[1] Currently pregnant, 12 weeks of gestation.');
    expect(asked).toContain('"sentence_ids"');
    expect(asked).not.toContain('insulin-pregnant');
    expect(screening.assessments).toEqual([
      { criterion_id: 'dm', verdict: 'met', evidence: 'Type 2 diabetes since 2015.', explanation: 'Type 2 since 2015.' },
      // The model's own text ('30 weeks') is never quoted; an id outside the record is ignored.
      { criterion_id: 'preg', verdict: 'met', evidence: 'Currently pregnant, 12 weeks of gestation.', explanation: 'Pregnant.' },
      // A label no sentence backs is not taken; the model's reason is kept for the coordinator to read.
      { criterion_id: 'ins', verdict: 'unclear', evidence: '', explanation: 'No insulin.' },
      { criterion_id: 'smoke', verdict: 'unclear', evidence: '', explanation: 'Not said.' },
    ]);
    expect(screening.explanation).toBe('Excluded by pregnancy.');
  });

  it('maps the labels by criterion type and keeps an older answer only where its quote is in the record', async () => {
    const { parseModelScreening } = await import('./screener.js');
    const answer = JSON.stringify({
      criteria: [
        { id: 'dm', label: 'not included', sentence_ids: [2] },
        { id: 'preg', label: 'not applicable', sentence_ids: [0] },
        { id: 'ins', verdict: 'met', evidence: 'Insulin glargine 20 U' },
        { id: 'smoke', verdict: 'not_met', evidence: 'No insulin therapy' },
      ],
    });
    expect(parseModelScreening(answer, criteria, record)!.assessments).toEqual([
      { criterion_id: 'dm', verdict: 'not_met', evidence: 'Type 2 diabetes since 2015.' },
      { criterion_id: 'preg', verdict: 'not_met', evidence: 'No insulin therapy to date.' },
      { criterion_id: 'ins', verdict: 'unclear', evidence: '' },
      { criterion_id: 'smoke', verdict: 'not_met', evidence: 'No insulin therapy to date.' },
    ]);
  });
});

describe('criteria the screener has no concept for', () => {
  it('reads their words with the same scopes: negated, past, about someone else', () => {
    const cancer = [c('ca', 'History of breast cancer', 'critical_exclusion'), c('active', 'Active breast cancer', 'critical_exclusion')];
    expect(verdicts('Past history of breast cancer, treated in 2012.', cancer)).toEqual({ ca: 'met', active: 'not_met' });
    expect(verdicts('No history of breast cancer.', cancer)).toEqual({ ca: 'not_met', active: 'not_met' });
    expect(verdicts('Mother had breast cancer.', cancer)).toEqual({ ca: 'unclear', active: 'unclear' });
  });
});

describe('mutually exclusive concepts', () => {
  it('settles pregnancy and breastfeeding for a man, in the four languages', () => {
    for (const doc of ['Male, 58 years old.', 'Sexo: masculino.', 'Homem de 58 anos.', 'Geschlecht: männlich.', 'Varón de 58 años.'])
      expect(screen(doc).preg, doc).toMatchObject({ verdict: 'not_met', evidence: doc });
    expect(verdicts('Female, 58 years old.').preg).toBe('unclear');
  });
});
