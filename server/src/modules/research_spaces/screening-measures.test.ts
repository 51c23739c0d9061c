/**
 * The offline screener on heart-failure and lung trials: measurements under their local names (ejection
 * fraction, NT-proBNP, blood pressure, FEV1, pack-years), events within a time window counted back from the
 * record's date, a scan's digit confusions, and what a record implies without saying (a medication list, an age
 * past pregnancy, no oxygen therapy at all).
 */
import { describe, expect, it } from 'vitest';
import type { Criterion } from './criteria.js';
import { eventSpan, windowIn } from '../../clinical/record-numbers.js';
import { screenOffline } from './offline-screener.js';
import { repairOcrDigits, sentences } from '../../clinical/record-text.js';

const today = new Date('2026-11-22T12:00:00Z');
const c = (id: string, definition: string, type: Criterion['type'] = 'critical_inclusion'): Criterion => ({ id, definition, type, needsReview: false });
const screen = (criteria: Criterion[], documents: string) => Object.fromEntries(screenOffline(criteria, documents, today).map((a) => [a.criterion_id, a]));
const verdict = (criterion: Criterion, documents: string) => screenOffline([criterion], documents, today)[0]!.verdict;

describe('measurements under their local names', () => {
  const lvef = c('lvef', 'LVEF ≤ 40%');
  it('reads the ejection fraction as LVEF, FEVE, FEVI, EF or Ejektionsfraktion, in per cent', () => {
    expect(verdict(lvef, 'Echocardiogram 2026-03-30: LVEF 32%.')).toBe('met');
    expect(verdict(lvef, 'Insuficiência cardíaca de novo; FEVE 35 %.')).toBe('met');
    expect(verdict(lvef, 'Insuficiencia cardíaca con FEVI 30 %.')).toBe('met');
    expect(verdict(lvef, 'Echokardiographie: Ejektionsfraktion 55 %.')).toBe('not_met');
    // Exactly at the limit is within '≤'.
    expect(verdict(lvef, 'FEVE 40 %.')).toBe('met');
    // A heading naming the measure without a value settles nothing.
    expect(verdict(lvef, 'Herzinsuffizienz mit erhaltener Ejektionsfraktion.')).toBe('unclear');
  });

  it('reads NT-proBNP with thousands grouped by a space or a point', () => {
    const bnp = c('bnp', 'NT-proBNP ≥ 600 pg/mL');
    expect(verdict(bnp, 'NT-proBNP 1 250 pg/mL')).toBe('met');
    expect(verdict(bnp, 'NT-proBNP 1.250 pg/ml')).toBe('met');
    expect(verdict(bnp, 'NT-proBNP 410 pg/ml.')).toBe('not_met');
  });

  it('takes the systolic pressure from a blood pressure pair, under its names in the four languages', () => {
    const sbp = c('sbp', 'Systolic blood pressure below 95 mmHg', 'critical_exclusion');
    expect(verdict(sbp, 'Blood pressure 118/72 mmHg.')).toBe('not_met');
    expect(verdict(sbp, 'PA 92/60 mmHg.')).toBe('met');
    expect(verdict(sbp, 'RR 142/80 mmHg.')).toBe('not_met');
    expect(verdict(sbp, 'Tensión arterial 126/70 mmHg.')).toBe('not_met');
    expect(verdict(sbp, 'Systolic blood pressure 92 mmHg, on sacubitril/valsartan.')).toBe('met');
    // A pressure with no pair and no systolic name is no systolic pressure.
    expect(verdict(sbp, 'PA estável.')).toBe('unclear');
  });

  it('reads FEV1 as a percentage of predicted, never the litres beside it nor the FEV1/FVC ratio', () => {
    const fev1 = c('fev1', 'Post-bronchodilator FEV1 between 30% and 70% of predicted');
    expect(verdict(fev1, 'Espirometria pós-broncodilatação: FEV1 1,12 L (45 % do previsto).')).toBe('met');
    expect(verdict(fev1, 'Spirometry: post-bronchodilator FEV1 74% predicted.')).toBe('not_met');
    expect(verdict(fev1, 'FEV1/FVC 65 %.')).toBe('unclear');
    expect(verdict(fev1, 'FEV1 nach Bronchodilatation 38 % vom Soll.')).toBe('met');
  });

  it('reads pack-years as a number before its unit, and a never-smoker as none', () => {
    const packs = c('packs', 'Smoking history of at least 10 pack-years');
    expect(verdict(packs, 'Ex-fumador de 35 paquetes-año (dejó en 2018).')).toBe('met');
    expect(verdict(packs, 'Fumadora ativa, carga tabágica de 50 UMA.')).toBe('met');
    expect(verdict(packs, 'Ex-Raucherin, 20 Packungsjahre')).toBe('met');
    expect(verdict(packs, 'Smoker, 5 pack-years.')).toBe('not_met');
    expect(verdict(packs, 'Never smoker.')).toBe('not_met');
    expect(verdict(packs, 'Niega tabaquismo.')).toBe('not_met');
    // A former smoker with no quantity is left to the coordinator.
    expect(verdict(packs, 'Ex-fumador.')).toBe('unclear');
  });

  it('takes the latest of several dated values', () => {
    const a1c = c('a1c', 'HbA1c between 7% and 10%');
    const record = 'Análises de 2025-02-10: HbA1c 11,2 %.\nAnálises de 2026-09-01: HbA1c 8,0 %.';
    expect(screen([a1c], record).a1c).toMatchObject({ verdict: 'met', evidence: 'Análises de 2026-09-01: HbA1c 8,0 %.' });
  });
});

describe('events within a time window', () => {
  const mi = c('mi', 'Myocardial infarction within the last 3 months', 'critical_exclusion');
  it('counts back from the record’s own date, from a full date, a year or a time ago', () => {
    expect(verdict(mi, 'Nota de internamento, 2026-05-20.\nEnfarte agudo do miocárdio em 2026-04-28, submetido a angioplastia.')).toBe('met');
    expect(verdict(mi, 'Befundbericht, Datum: 17.09.2026\nZ. n. Myokardinfarkt 2023.')).toBe('not_met');
    expect(verdict(mi, 'Clinic letter, 2026-06-01.\nMyocardial infarction 3 weeks ago.')).toBe('met');
    expect(verdict(mi, 'Informe, 2026-06-01.\nInfarto de miocardio hace 2 años.')).toBe('not_met');
    // Said, but not when: the coordinator has to ask.
    expect(verdict(mi, 'Clinic letter, 2026-06-01.\nPrevious myocardial infarction.')).toBe('unclear');
    // Denied outright.
    expect(verdict(mi, 'Nega enfarte do miocárdio.')).toBe('not_met');
  });

  it('finds the window in the four languages', () => {
    expect(windowIn('myocardial infarction within the last 3 months')?.days).toBeCloseTo(91.3, 0);
    expect(windowIn('avc nos ultimos 6 meses')?.days).toBeCloseTo(182.6, 0);
    expect(windowIn('schlaganfall in den letzten drei monaten')?.days).toBeCloseTo(91.3, 0);
    expect(windowIn('ictus en las ultimas 4 semanas')?.days).toBe(28);
    expect(windowIn('history of stroke')).toBeUndefined();
    expect(eventSpan('avc em marco de 2026', today)).toEqual({ from: new Date(Date.UTC(2026, 2, 1)), to: new Date(Date.UTC(2026, 2, 31)) });
  });
});

describe("a scan's confusions", () => {
  it('puts digits read as letters right, only in words that are otherwise numbers', () => {
    expect(repairOcrDigits('sexo masculino, 8l anos; feve 3o %; pa l10/70; nt-probnp l 250 pg/ml; c0pd')).toBe(
      'sexo masculino, 81 anos; feve 30 %; pa 110/70; nt-probnp 1 250 pg/ml; copd',
    );
    expect(repairOcrDigits('hba1c 7,2 %; fev1 38 %; o2-langzeittherapie; t2dm')).toBe('hba1c 7,2 %; fev1 38 %; o2-langzeittherapie; t2dm');
  });

  it('reads a lab line whose name is given twice, the other in parentheses, with a decimal comma or point', () => {
    const hba1c = c('hba1c', 'HbA1c between 7% and 10%');
    expect(verdict(hba1c, 'Hemoglobina glicada (HbA1c): 8,2 %')).toBe('met');
    expect(verdict(hba1c, 'Glycated haemoglobin (HbA1c): 8.2 %')).toBe('met');
    expect(verdict(hba1c, 'HbA1c (hemoglobina glicada) 11,2 %')).toBe('not_met');
    expect(verdict(hba1c, 'Glykiertes Hämoglobin (HbA1c) 64 mmol/mol')).toBe('met');
  });

  it("reads HbA1c through OCR's confusions of its '1', when its value and unit follow", () => {
    const hba1c = c('hba1c', 'HbA1c between 7% and 10%');
    expect(verdict(hba1c, 'Type 2 diabetes mellitus since 2012.\nHbAtc 12.5 %.')).toBe('not_met');
    expect(verdict(hba1c, 'HbAlc 8.2 %')).toBe('met');
    expect(verdict(hba1c, 'HbAIc 8,2 %')).toBe('met');
    // 'ATC' (a drug's classification code) is no HbA1c.
    expect(verdict(hba1c, 'ATC code A10BA02, 8 %')).toBe('unclear');
  });

  it('joins a word hyphenated at a line end', () => {
    expect(sentences('Diagnose: Diabetes mel-\nlitus Typ 2, art. Hypertonie')).toEqual(['Diagnose: Diabetes mellitus Typ 2, art. Hypertonie']);
    const result = screen(
      [c('age', 'Age 18 years or older'), c('copd', 'Diagnosis of COPD')],
      'Doente: J. M. P., sexo mascu-\nlino, 8l anos\nDiagnose: C0PD GOLD 2, kein Asthma',
    );
    expect(result.age).toMatchObject({ verdict: 'met', evidence: 'Doente: J. M. P., sexo masculino, 8l anos' });
    expect(result.copd!.verdict).toBe('met');
  });
});

describe('what a record implies', () => {
  it('reads no oxygen therapy as no long-term oxygen, but oxygen therapy alone as not saying it is long-term', () => {
    const ltot = c('ltot', 'Long-term oxygen therapy', 'critical_exclusion');
    expect(verdict(ltot, 'Sem oxigenoterapia.')).toBe('not_met');
    expect(verdict(ltot, 'Keine Sauerstofftherapie.')).toBe('not_met');
    expect(verdict(ltot, 'Oxigenoterapia de longa duração (16 h/dia) desde 2025.')).toBe('met');
    expect(verdict(ltot, 'Oxygen therapy during the admission.')).toBe('unclear');
  });

  it('reads a medication list without the medicine as not taking it', () => {
    const insulin = c('ins', 'Current insulin therapy', 'critical_exclusion');
    expect(screen([insulin], 'Medication: metformin 500 mg twice daily, ramipril 5 mg.').ins).toMatchObject({
      verdict: 'not_met',
      evidence: 'Medication: metformin 500 mg twice daily, ramipril 5 mg.',
    });
    expect(verdict(insulin, 'Medikation: Metformin, Insulin glargin 20 IE.')).toBe('met');
    // No list, no inference.
    expect(verdict(insulin, 'Type 2 diabetes.')).toBe('unclear');
  });

  it('reads pregnancy and breastfeeding as absent from the age of 60', () => {
    const preg = c('preg', 'Pregnancy or breastfeeding', 'critical_exclusion');
    expect(verdict(preg, 'Mujer de 78 años.')).toBe('not_met');
    expect(verdict(preg, 'Mulher de 41 anos.')).toBe('unclear');
  });

  it('reads a condition resolved at the end of its clause as past, so a current diagnosis is not met', () => {
    const asthma = c('asthma', 'Current diagnosis of asthma', 'critical_exclusion');
    expect(verdict(asthma, 'Asma en la infancia, resuelta; sin asma actual.')).toBe('not_met');
    expect(verdict(asthma, 'Long-standing asthma since childhood, on inhaled budesonide/formoterol.')).toBe('met');
  });
});

describe('headings', () => {
  it('reads the value under a heading that names the concept, not the heading', () => {
    const smoking = c('smoke', 'Current smoking', 'critical_exclusion');
    expect(verdict(smoking, 'Estado tabágico: ex-fumador.')).toBe('not_met');
    expect(verdict(smoking, 'Hábitos tabágicos: ex-fumadora desde 2019.')).toBe('not_met');
    expect(verdict(smoking, 'Estado tabágico: fumador ativo.')).toBe('met');
    expect(verdict(smoking, 'Tabagismo: negativo.')).toBe('not_met');
  });
});

describe('criteria that join measures and conditions', () => {
  const renal = c('renal', 'Creatinine clearance below 30 mL/min (Cockcroft-Gault) or eGFR < 30 mL/min/1.73 m²', 'critical_exclusion');
  it('screens each part and joins them as the criterion does, a part the record does not give leaving the others to settle it', () => {
    expect(verdict(renal, 'CrCl (C-G) 24 mL/min.')).toBe('met');
    expect(verdict(renal, 'Aclaramiento de creatinina (Cockcroft-Gault) 30 ml/min.')).toBe('not_met');
    expect(verdict(renal, 'TFGe (CKD-EPI) .... 54 mL/min/1,73 m2')).toBe('not_met');
    expect(verdict(renal, 'eGFR 58 mL/min/1.73m2; creatinine clearance 26 mL/min.')).toBe('met');
    expect(verdict(renal, 'Renal function not assessed.')).toBe('unclear');
  });

  it('reads scores and the urine albumin-to-creatinine ratio, converting mg/mmol to mg/g', () => {
    expect(verdict(c('chads', 'CHA2DS2-VASc score of at least 2'), 'CHA2DS2-VASc-Score: 2 (weibl. Geschlecht, Hypertonie)')).toBe('met');
    const uacr = c('uacr', 'Urine albumin-to-creatinine ratio (UACR) ≥ 200 mg/g');
    expect(verdict(uacr, 'Cociente albúmina/creatinina en orina: 245 mg/g.')).toBe('met');
    expect(verdict(uacr, 'Albumin/Kreatinin-Quotient (Urin) 18 mg/mmol')).toBe('not_met');
    expect(verdict(uacr, 'Urine ACR 54 mg/mmol (previously 31).')).toBe('met');
  });
});

describe('lists, plans and contradictions', () => {
  const cerebral = c('cns', 'Ischaemic stroke, TIA or intracranial haemorrhage within the past 3 months', 'critical_exclusion');
  it('carries a negation across a list, and reads the conditions it denies as settling one it does not name', () => {
    expect(verdict(cerebral, 'Letter, 2026-03-12.\nNo history of stroke or TIA. Father had a stroke at 70.')).toBe('not_met');
    expect(verdict(cerebral, 'Datum: 14.09.2026\nKein Schlaganfall oder TIA in der Vorgeschichte.')).toBe('not_met');
    expect(verdict(c('rrt', 'Kidney transplant recipient or on maintenance dialysis', 'critical_exclusion'), 'He remains off dialysis.')).toBe('not_met');
    expect(verdict(c('rrt', 'Kidney transplant recipient or on maintenance dialysis', 'critical_exclusion'), 'Z.n. Nierentransplantation 2017.')).toBe('met');
  });

  it('reads plans, options and requests as not yet facts, and a deferred treatment as not taken', () => {
    const oac = c('oac', 'Current treatment with an oral anticoagulant (vitamin K antagonist or direct oral anticoagulant)', 'critical_exclusion');
    expect(verdict(oac, 'Plan: se plantea inicio de anticoagulación oral.')).toBe('unclear');
    expect(verdict(oac, 'Mit der Bitte um Mitbeurteilung bzgl. Antikoagulation.')).toBe('unclear');
    expect(verdict(oac, 'Anticoagulation deferred to GP review given recurrent falls.')).toBe('not_met');
    expect(verdict(oac, 'Medikation: Phenprocoumon (Marcumar) nach INR.')).toBe('met');
    expect(verdict(oac, 'Iniciou hipocoagulação com apixabano 5 mg 2id.')).toBe('met');
  });

  it("reaches three words from a short 'no' ('No cumple criterios de EPOC')", () => {
    expect(verdict(c('copd', 'Diagnosis of COPD', 'critical_exclusion'), 'No cumple criterios de EPOC.')).toBe('not_met');
  });

  it('leaves a state the record both asserts and denies to the coordinator', () => {
    const preg = c('preg', 'Pregnant', 'critical_exclusion');
    expect(verdict(preg, 'Consulta de ERC y gestación.\nTest de embarazo en orina (hoy): negativo.')).toBe('unclear');
    expect(verdict(preg, 'Test de embarazo en orina (hoy): negativo.')).toBe('not_met');
  });

  it('reads native valves as no prosthesis, and a list item’s words as that item’s', () => {
    const valve = c('valve', 'Mechanical prosthetic heart valve or moderate-to-severe mitral stenosis', 'critical_exclusion');
    expect(verdict(valve, 'Echo (Feb 2026): native valves, no mitral stenosis, LVEF 55%.')).toBe('not_met');
    expect(verdict(valve, '- Z.n. mechanischem Aortenklappenersatz (St. Jude Medical 23 mm) 2015')).toBe('met');
    // Mild is not moderate-to-severe: the record names it, the coordinator weighs it.
    expect(verdict(valve, 'Ecocardiograma: válvulas nativas; estenose mitral ligeira.')).toBe('unclear');
  });

  it("finds the mention that says the criterion's own qualifier, and keeps 'non-valvular' from reading as a negation", () => {
    const af = c('af', 'Non-valvular atrial fibrillation documented on ECG or ambulatory monitoring');
    expect(screen([af], 'Referral to Cardiology (AF clinic)\nA 7-day Holter confirmed paroxysmal non-valvular AF.').af).toMatchObject({
      verdict: 'met',
      evidence: 'A 7-day Holter confirmed paroxysmal non-valvular AF.',
    });
    expect(verdict(af, 'Diagnósticos secundários: fibrilhação auricular permanente não valvular; HTA.')).toBe('met');
    expect(verdict(af, 'Persistierendes Vorhofflimmern.')).toBe('unclear');
  });

  it('reads an age written alone between commas, and not the age at a diagnosis', () => {
    expect(verdict(c('age', 'Age ≥ 65 years'), 'Utente: José Manuel Rocha Pires, 69 anos, sexo masculino.')).toBe('met');
    expect(
      verdict(c('age', 'Aged between 18 and 75 years'), 'Date: 19/10/2026\nRe: Ms S. T., DOB 22/09/1990\nType 1 diabetes since childhood (diagnosed aged 9).'),
    ).toBe('met');
  });
});

describe('more measures and implications', () => {
  it('reads eosinophils per µL, converting counts given per litre', () => {
    const eos = c('eos', 'Blood eosinophil count ≥ 300 cells/µL');
    expect(verdict(eos, 'Labor: Leukozyten 11,4 G/l, Eos. 600/µl, CRP 2,1 mg/dl.')).toBe('met');
    expect(verdict(eos, 'Abnahme 14.07.2026: Leukozyten 6,8 G/l; Eosinophile 0,29 G/l')).toBe('not_met');
    expect(verdict(eos, 'Hemograma: eosinófilos 300/µL.')).toBe('met');
  });

  it("reads a threshold written as '140 mmHg or higher', and a pressure a few words after its name", () => {
    const sbp = c('sbp', 'Office systolic blood pressure of 140 mmHg or higher at screening');
    expect(verdict(sbp, 'Tensão arterial no consultório (média de 2 medições): 140/86 mmHg.')).toBe('met');
    expect(verdict(sbp, 'Praxis-RR heute: 132/80 mmHg.')).toBe('not_met');
  });

  it('needs every concept of a criterion where one qualifies another, and reads previous treatment only from what the record says', () => {
    const bio = c('bio', 'Any previous treatment with a biologic for asthma (omalizumab, mepolizumab or dupilumab)', 'critical_exclusion');
    expect(verdict(bio, 'Asma grave. Fez omalizumab (Xolair) entre 2019 e 2021, suspenso por ausência de resposta.')).toBe('met');
    expect(verdict(bio, 'Asthma bronchiale. Keine Vortherapie mit Biologika.')).toBe('not_met');
    // Today's medication list says nothing of what was tried before.
    expect(verdict(bio, 'Severe asthma.\nMedication: Fostair 200/6 2 puffs bd, Ventolin prn.')).toBe('unclear');
  });

  it('reads a postmenopausal woman as not pregnant, and a suspected diagnosis (V. a.) as open', () => {
    expect(verdict(c('preg', 'Pregnant or breastfeeding', 'critical_exclusion'), 'Mulher de 58 anos, pós-menopausa desde os 51.')).toBe('not_met');
    expect(verdict(c('copd', 'Diagnosis of COPD', 'critical_exclusion'), '2. V. a. COPD, Lungenfunktion ausstehend')).toBe('unclear');
  });

  it("repairs a scan's 'O' in a date but keeps O2 as oxygen", () => {
    expect(repairOcrDigits('dob: o4/o2/l949; o2-langzeittherapie')).toBe('dob: 04/02/1949; o2-langzeittherapie');
  });
});

describe('prefixes', () => {
  it("reads 'pré-biológico' as another word than 'biológico'", () => {
    const bio = c('bio', 'Any previous treatment with a biologic', 'critical_exclusion');
    expect(verdict(bio, 'Rastreio pré-biológico: IGRA (QuantiFERON) negativo.')).toBe('unclear');
  });
});

describe('ages as criteria and records write them', () => {
  it('reads the bounds of age criteria written with a sign against the word, or "of age"', () => {
    for (const definition of ['18 years of age or older', 'Age>18', 'Age≥ 18years', 'Patients aged 18 years or older'])
      expect(verdict(c('age', definition), 'A 44-year-old man with chest pain.'), definition).toBe('met');
    for (const definition of ['Age<40', '40 years of age or younger', 'Age ≤ 40 years'])
      expect(verdict(c('age', definition), 'A 44-year-old man with chest pain.'), definition).toBe('not_met');
  });

  it("reads '44 yo', '44 y/o' and '44 y.o.' before a person or a sentence's end, never Spanish 'yo'", () => {
    const young = c('age', 'Age between 18 and 40 years');
    for (const record of ['44 yo man with cough.', 'A 44 y/o woman.', 'Pt is a 44 y.o. female with dyspnoea.'])
      expect(verdict(young, record), record).toBe('not_met');
    expect(verdict(young, 'A 32 yo woman.')).toBe('met');
    expect(verdict(young, 'Fumadora: a los 20 yo empecé a fumar.')).toBe('unclear');
  });
});

describe('a PDF text cut into sentences', () => {
  it("ends a sentence after a unit or 'ago' before a capital, and joins a line wrapped before a blood pressure", () => {
    const text =
      'Chest pain started 2 days ago. She denies fever.\nHeight 172 cm. Weight 80 kg.\nHeart rate 88/min. Respiratory rate 18/min. BP was recorded as\n115/80 mm Hg on arrival. Seen by Dr. Smith today.';
    expect(sentences(text)).toEqual([
      'Chest pain started 2 days ago.',
      'She denies fever.',
      'Height 172 cm.',
      'Weight 80 kg.',
      'Heart rate 88/min.',
      'Respiratory rate 18/min.',
      'BP was recorded as 115/80 mm Hg on arrival.',
      'Seen by Dr. Smith today.',
    ]);
    expect(verdict(c('sbp', 'Systolic blood pressure ≥ 140 mmHg'), 'On examination the BP was recorded as\n115/80 mm Hg on arrival.')).toBe('not_met');
  });
});

describe('precision first: a criterion is settled only by a statement that settles it', () => {
  it('never takes a pregnancy once had for one now, nor a gestational age for the patient’s age', () => {
    expect(verdict(c('preg', 'Current pregnancy', 'critical_exclusion'), 'She had an ectopic pregnancy in 2019. No other history.')).toBe('unclear');
    expect(verdict(c('preg', 'Current pregnancy', 'critical_exclusion'), 'She had an ectopic pregnancy in 2019. Pregnancy test today: negative.')).toBe(
      'not_met',
    );
    expect(verdict(c('preg', 'Current pregnancy', 'critical_exclusion'), 'She is pregnant, 12 weeks.')).toBe('met');
    expect(verdict(c('ga', 'Gestational age < 23 weeks'), 'A 27-year-old woman, G2P1, presents with abdominal pain.')).toBe('unclear');
    // A condition dated in a year is still had; 'since' a year, still now.
    expect(verdict(c('dm', 'History of diabetes'), 'Diabetes diagnosed in 2012, on metformin.')).toBe('met');
  });

  it('matches a concept as a whole: an acronym the criterion names must be said', () => {
    const hiv = c('hiv', 'HIV infection', 'critical_exclusion');
    expect(verdict(hiv, 'Urine showed white cells, suggesting infection. Cells were cultured.')).toBe('unclear');
    expect(verdict(hiv, 'Known HIV infection on antiretrovirals.')).toBe('met');
  });

  it('needs every part of an age joined to a condition', () => {
    const old = c('old-hf', 'Age over 65 with heart failure');
    expect(verdict(old, 'A 70-year-old man with COPD. No heart failure.')).toBe('not_met');
    expect(verdict(old, 'A 70-year-old man with COPD.')).toBe('unclear');
    expect(verdict(old, 'A 70-year-old man with heart failure.')).toBe('met');
    expect(verdict(old, 'A 50-year-old man with heart failure.')).toBe('not_met');
  });
});

describe('no wrong verdict where a criterion or a sentence cannot be read whole (review of the rules above)', () => {
  const cases: [string, string, Criterion['type']][] = [
    ['Age ≥ 18 years with type 2 diabetes, not on insulin', 'A 58-year-old man with type 2 diabetes on metformin. Insulin: none.', 'critical_inclusion'],
    ['Male or non-pregnant female, aged 18 to 75 years', 'A 52-year-old man with type 2 diabetes.', 'critical_inclusion'],
    ['Age ≥ 65 years or prior stroke', 'A 70-year-old woman. No history of stroke.', 'critical_inclusion'],
    ['Idade ≥ 65 anos ou AVC prévio', 'Mulher de 70 anos. Sem antecedentes de AVC.', 'critical_inclusion'],
    ['Male or female aged 18 years or older', 'A 30-year-old woman, pregnant, 12 weeks.', 'critical_inclusion'],
    ['Current or former smokers aged 40 years or older', 'A 55-year-old former smoker.', 'critical_inclusion'],
    ['Current hypertension', 'Hypertension diagnosed in 2019, on ramipril.', 'critical_inclusion'],
    ['Active cancer', 'Breast cancer diagnosed in 2023, currently on chemotherapy.', 'critical_exclusion'],
    ['Current insulin therapy', 'Insulin glargine started in 2020, metformin stopped.', 'critical_inclusion'],
    ['Current oral anticoagulation', 'Apixaban started in 2021 for AF; aspirin discontinued.', 'critical_exclusion'],
    ['Current pregnancy', 'Pregnancy confirmed in 2026 (previous miscarriage in 2023).', 'critical_exclusion'],
    ['Currently on dialysis', 'Haemodialysis started in 2020; previously peritoneal dialysis.', 'critical_inclusion'],
    ['Tabagismo ativo', 'Fumador, iniciou em 1990, 30 UMA; deixou o álcool.', 'critical_inclusion'],
    ['History of seizures OR epilepsy', 'Seizures since childhood, on valproate. No status epilepticus or trauma.', 'critical_exclusion'],
    ['Fever OR cough', 'Fever 38.5 °C since yesterday. No cough or dyspnoea.', 'critical_inclusion'],
    ['History of myocardial infarction', 'No known drug allergies\n05/2019 myocardial infarction, treated with PCI', 'critical_inclusion'],
    ['Age between 18 and 40 years', 'Antecedentes: a los 15 yo, asma. Mujer de 35 años.', 'critical_inclusion'],
    ['Age between 18 and 40 years', 'Daughter 8 yo with asthma. Patient is a 35 year old woman.', 'critical_inclusion'],
  ];
  it.each(cases)('%s, from "%s": never "not met"', (definition, record, type) => {
    expect(verdict(c('x', definition, type), record)).not.toBe('not_met');
  });
});

describe('values and ages that belong elsewhere', () => {
  it('reads no age from a relative or a family history', () => {
    expect(verdict(c('age', 'Age ≥ 65 years'), 'FH: brother had bowel cancer aged 70. Attends for review.')).toBe('unclear');
    expect(verdict(c('age', 'Age ≥ 65 years'), 'His mother, 82 years old, lives with him.')).toBe('unclear');
    expect(verdict(c('age', 'Age ≥ 65 years'), 'A 45-year-old man; his father died aged 80.')).toBe('not_met');
    expect(verdict(c('age', 'Age ≥ 65 years'), 'Lives with her husband; 67 years old. Her 40-year-old son is her carer.')).toBe('met');
    expect(verdict(c('age', 'Age ≥ 65 years'), 'Per wife, 70 yo M with dementia. His 45-year-old son lives nearby.')).toBe('unclear');
    expect(verdict(c('age', 'Age ≥ 65 years'), 'Date of birth: 01/01/1950. Lives with her two children aged 8 and 11.')).toBe('met');
    expect(verdict(c('age', 'Age ≥ 65 years'), 'Data de nascimento: 01/01/1950. Vive com o marido, com 58 anos de idade.')).toBe('met');
  });

  it("reads no eGFR from its equation's year", () => {
    expect(verdict(c('egfr', 'eGFR between 25 and 60 mL/min/1.73 m²'), 'Labs: eGFR 41 mL/min/1.73 m2 (CKD-EPI 2021), K 5.0.')).toBe('met');
    expect(verdict(c('egfr', 'eGFR between 25 and 60 mL/min/1.73 m²'), 'eGFR (CKD-EPI 2021) 60 ml/min/1,73m²')).toBe('met');
  });

  it('leaves open values on both sides of a limit that no single latest date settles', () => {
    const egfr = c('egfr', 'eGFR < 30 mL/min/1.73 m²', 'critical_exclusion');
    expect(verdict(egfr, 'eGFR 25 ml/min on 01/03/2026; eGFR 45 ml/min on 15/10/2026.')).toBe('unclear');
    expect(verdict(egfr, 'Labs 01/03/2026: eGFR 25 ml/min.\nLabs 15/10/2026: eGFR 45 ml/min.')).toBe('not_met');
    expect(verdict(c('a1c', 'HbA1c between 7% and 10%'), 'HbA1c 6,5 % (10/01/2024). Today HbA1c 8,2 %.')).toBe('unclear');
    expect(verdict(c('egfr', 'eGFR ≥ 30 mL/min'), 'eGFR (CKD-EPI) 2021: 48 mL/min.')).toBe('met');
    expect(verdict(c('egfr', 'eGFR ≥ 30 mL/min'), 'TFG (CKD-EPI, 2021) 48 mL/min.')).toBe('met');
  });

  it('leaves open a measure the record gives on both sides of the limit', () => {
    const eos = c('eos', 'Blood eosinophil count ≥ 300 cells/µL at screening or documented within the previous 12 months');
    expect(verdict(eos, 'Eosinophils 450 cells/µL (03/2026). Eosinophils 250 cells/µL (10/2026).')).toBe('unclear');
    expect(verdict(eos, 'Eosinophils 450 cells/µL (03/2026). Eosinophils 350 cells/µL (10/2026).')).toBe('met');
  });
});

describe('phrasings of case summaries and trial registries', () => {
  it("reads no age from a number before 'M' or 'F', which is as often months, metres or degrees", () => {
    const adult = c('age', 'Age ≥ 18 years');
    expect(verdict(adult, '48 M with a h/o HTN and hyperlipidemia.')).toBe('unclear');
    expect(verdict(adult, '18 m with fever and cough for 3 days.')).toBe('unclear');
    expect(verdict(c('age', 'Age 18–80 years'), 'DOB: 12/03/1950.\n101 F, with rigors, HR 112.')).toBe('met');
    expect(verdict(c('age', 'Age ≥ 18 years'), 'Menarche age 12. Gestational age 12 weeks. Date of birth: 01/01/1990.')).toBe('met');
  });

  it("reads 'Male or female, 40 years of age or older' as an age, 'Male, 40 years…' as both", () => {
    expect(verdict(c('age', 'Male or female, 40 years of age or older'), 'A 66-year-old woman with hand pain.')).toBe('met');
    expect(verdict(c('age', 'Male or female, 40 years of age or older'), 'A 35-year-old man with knee pain.')).toBe('not_met');
    expect(verdict(c('age', 'Men aged 40 years or older'), 'A 66-year-old woman with hand pain.')).not.toBe('met');
  });

  it('settles no limit on a quantity it cannot measure from a sentence naming it', () => {
    expect(verdict(c('plt', 'Platelet count < 100,000/µL', 'non_critical_exclusion'), 'Laboratory findings reveal a normal platelet count.')).toBe('unclear');
    expect(verdict(c('exa', 'More than two exacerbations in the past year', 'critical_inclusion'), 'One COPD exacerbation in March.')).toBe('unclear');
  });

  it("reads a negative test as a denial of what was tested only ('pregnancy test is negative and…')", () => {
    expect(verdict(c('preg', 'Pregnant or breastfeeding women', 'critical_exclusion'), 'Her pregnancy test is negative and she is not breastfeeding.')).toBe(
      'not_met',
    );
    expect(verdict(c('dm', 'Type 2 diabetes mellitus'), 'Known T2DM, COVID test negative and afebrile on arrival.')).toBe('met');
    expect(verdict(c('htn', 'Hipertensão arterial'), 'Hipertensão arterial, PCR SARS-CoV-2 negativa e apirética.')).toBe('met');
    expect(verdict(c('preg', 'Pregnancy', 'critical_exclusion'), 'Pregnancy test positive, HIV screen negative and hepatitis serology pending.')).not.toBe(
      'not_met',
    );
    expect(
      verdict(c('preg', 'Pregnant or breastfeeding', 'critical_exclusion'), 'Currently breastfeeding, pregnancy test negative and no contraception.'),
    ).toBe('met');
  });

  it("settles no number asked of a concept from the concept's mention", () => {
    expect(
      verdict(c('x', 'At least two COPD exacerbations requiring oral corticosteroids'), 'COPD; one exacerbation in March treated with prednisolone.'),
    ).toBe('unclear');
    expect(verdict(c('x', 'Type 2 diabetes for more than 10 years'), 'Type 2 diabetes diagnosed in 2023.')).toBe('unclear');
    expect(verdict(c('x', 'Current smoker of at least 10 cigarettes per day'), 'Never smoker.')).toBe('not_met');
  });
});

describe('an age asked of one sex', () => {
  const men = c('age', 'Men aged 50 years or older');
  it('settles it when the sentence giving the age gives the sex', () => {
    expect(verdict(men, 'The patient is a 63-year-old man presenting with urinary retention.')).toBe('met');
    expect(verdict(men, 'A 63-year-old woman presenting with urinary retention.')).toBe('not_met');
    expect(verdict(men, 'A 45-year-old man.')).toBe('not_met');
    expect(verdict(men, 'The patient is a 60-year-old Spanish man presenting with breathlessness.')).toBe('met');
    expect(verdict(men, 'A 63-year-old previously healthy woman.')).toBe('not_met');
    expect(verdict(men, 'A 63-year-old with a woman beside him.')).toBe('unclear');
  });
  it('reads the sex only where the record states it of the patient, never from a partner, a child, a title or a name', () => {
    expect(verdict(men, 'Age 63. Lives with his wife.')).toBe('unclear');
    expect(verdict(men, 'A 63-year-old man, brought in by a woman from his street.')).toBe('met');
    expect(verdict(men, 'A 63-year-old, accompanied by a woman who found him confused.')).toBe('unclear');
    expect(verdict(men, 'Mr Brown, 63 years old, attends with his daughter, a woman of 30.')).toBe('unclear');
    expect(verdict(men, 'A 63-year-old retired plumber, accompanied by his female partner.')).toBe('unclear');
    expect(verdict(c('m', 'Homens com 50 anos ou mais'), 'Utente de 63 anos, seguido no Hospital Senhora da Oliveira.')).toBe('unclear');
    expect(verdict(c('m', 'Hombres de 50 años o más'), 'Paciente de 63 años remitido desde el Hospital Nuestra Señora del Prado.')).toBe('unclear');
    expect(verdict(c('m', 'Hombres de 50 años o más'), 'Paciente de 63 años. Sexo: masculino.')).toBe('met');
    const women = c('w', 'Women aged 18–45 years');
    expect(verdict(women, 'A 32-year-old G2P1 presents with her male partner for fertility review.')).toBe('unclear');
    expect(verdict(women, '34 yo F with h/o PCOS, partner male.')).toBe('met');
    expect(verdict(c('w', 'Frauen im Alter von 18 bis 45 Jahren'), 'Sehr geehrter Herr Kollege, wir berichten über Ihre 34-jährige Patientin.')).toBe('met');
    expect(verdict(c('w', 'Frauen im Alter von 18 bis 45 Jahren'), 'Patientin Ingrid Mann, 34 Jahre alt, Kind männlich.')).toBe('unclear');
    expect(verdict(c('w', 'Mujeres de 18 a 45 años'), 'Paciente de 32 años, puérpera, recién nacido varón sano.')).toBe('unclear');
  });

  it('asks the sex beside conditions too, and leaves open what it does not read', () => {
    expect(verdict(c('m', 'Men aged 50 or older with hypertension'), 'A 63-year-old woman with long-standing hypertension.')).toBe('not_met');
    expect(verdict(c('m', 'Men aged 50 or older with hypertension'), 'A 63-year-old man with long-standing hypertension.')).toBe('met');
    expect(verdict(c('a', 'Adults aged 18 to 75 with moderate-to-severe plaque psoriasis'), 'A 30-year-old man with acne.')).toBe('unclear');
    expect(verdict(c('w', 'Women of childbearing potential aged 18–45'), 'A 40-year-old woman, hysterectomy in 2020.')).toBe('unclear');
    expect(verdict(c('a', 'Women aged 18 to 45 and men aged 18 to 60'), 'A 50-year-old man.')).toBe('unclear');
    expect(verdict(c('a', 'Women aged 55 or older and men aged 50 or older'), 'A 52-year-old man.')).toBe('unclear');
  });

  it("keeps real alternatives beside 'or older'", () => {
    expect(verdict(c('a', 'Alter ≥ 65 Jahre oder Alter ≥ 50 mit Diabetes mellitus Typ 2'), 'Herr K., 55 Jahre alt, Diabetes mellitus Typ 2.')).toBe('unclear');
    expect(verdict(c('a', 'Aged 65 or over with diabetes or over 75'), 'An 80-year-old man, no diabetes.')).toBe('unclear');
    expect(verdict(c('a', 'Age ≥ 75 years or under 75 with prior stroke'), 'A 70-year-old woman with a prior stroke.')).toBe('unclear');
    expect(verdict(c('a', 'Idade ≥ 65 anos ou menos de 65 com diabetes'), 'Utente de 60 anos com diabetes mellitus tipo 2.')).toBe('unclear');
    expect(verdict(c('a', 'Aged 18 or more and less than 65 with asthma or older with COPD'), 'A 70-year-old man with COPD.')).toBe('unclear');
  });
});

describe('gestational age', () => {
  const early = c('ga', 'Gestational age < 23 weeks', 'critical_exclusion');
  it('compares the weeks the record states, in the four languages, never the mother’s years', () => {
    expect(verdict(early, 'A 27-year-old woman, pregnant, 20 weeks of gestation.')).toBe('met');
    expect(verdict(early, 'A 27-year-old woman at 30 weeks of pregnancy.')).toBe('not_met');
    expect(verdict(early, 'Grávida de 14 semanas, 31 anos.')).toBe('met');
    expect(verdict(early, 'IG 24+3 semanas.')).toBe('not_met');
    expect(verdict(early, 'Schwanger in der 12. SSW.')).toBe('met');
    expect(verdict(early, 'Embarazada de 25 semanas.')).toBe('not_met');
    expect(verdict(early, 'A 27-year-old woman.')).toBe('unclear');
    expect(verdict(c('ga', 'Gestational age between 24 and 34 weeks'), 'Preterm infant born at 27 weeks, now day 3.')).toBe('met');
  });
  it('leaves it open when the record gives two, or a relative’s', () => {
    expect(verdict(early, 'Pregnant, 20 weeks of gestation. Dating scan today: 22+3 weeks.')).toBe('unclear');
    // A plan or an earlier pregnancy is not this one's weeks.
    expect(verdict(early, 'Pregnant, 20 weeks of gestation. Scan at 26 weeks of gestation planned.')).toBe('met');
    expect(
      verdict(
        c('ga', 'Gestational age between 12 and 20 weeks'),
        'Previous pregnancy: delivered at 38 weeks of gestation (2019). Currently 14 weeks pregnant.',
      ),
    ).toBe('met');
    expect(verdict(c('ga', 'Gestational age between 12 and 20 weeks'), 'Pregnancy 8 weeks. Next visit at 20 weeks of gestation.')).toBe('not_met');
    expect(verdict(c('ga', 'Gestational age between 12 and 20 weeks'), 'Amniocentesis is offered between 15 and 20 weeks of gestation.')).toBe('unclear');
    expect(verdict(c('gdm', 'Gestational diabetes diagnosed between 24 and 28 weeks'), 'Now 32 weeks of gestation. GDM diagnosed at 26 weeks.')).not.toBe(
      'not_met',
    );
    expect(verdict(early, 'Her sister is 20 weeks pregnant.')).toBe('unclear');
  });
});

describe('the second review: ages, sexes and values that belong to someone or something else', () => {
  const age = c('age', 'Aged 40 to 75 years');
  it('reads no age from a donor, a friend, a carer or a nurse, nor an age at an event, and leaves disagreeing ages open', () => {
    expect(verdict(age, 'Liver transplant from a 35-year-old male donor. Patient is a 58-year-old woman.')).toBe('met');
    expect(verdict(age, 'Brought in by a 30-year-old friend. Date of birth: 01/01/1968.')).toBe('met');
    expect(verdict(age, 'Pflegekraft, 30 Jahre alt, berichtet. Geburtsdatum: 01.01.1968.')).toBe('met');
    expect(verdict(age, 'Caregiver (70 years old) reports falls. Patient aged 90.')).toBe('not_met');
    expect(verdict(age, 'At 38 years old she was diagnosed with asthma. Now aged 58.')).toBe('met');
    expect(verdict(age, 'Patient aged 58. Lives with a roommate, 30 years old.')).toBe('met');
    expect(verdict(age, 'Age: 58. In the 2019 letter: 64 years old.')).toBe('unclear');
  });

  it('reads no sex from a possessive or a companion', () => {
    const men = c('m', 'Men aged 40 to 75 years');
    expect(verdict(men, "A 60-year-old woman's husband presents today with chest pain. He is 64.")).not.toBe('not_met');
    expect(verdict(men, 'Mr. Brown is a 64-year-old. Living with a 60-year-old woman, his partner.')).toBe('unclear');
    expect(verdict(men, 'Patient is a 50-year-old. Her 12-year-old boy has asthma.')).toBe('unclear');
    expect(verdict(c('w', 'Women aged 40 to 75 years'), "A 60-year-old man's wife presents today; she is 58.")).not.toBe('not_met');
  });

  it('uses an age and a measure as two parts, each with its own limits', () => {
    expect(verdict(c('x', 'Age 18 to 40 years and BMI ≥ 35 kg/m2'), 'Age: 30. BMI 42 kg/m2.')).toBe('met');
    expect(verdict(c('x', 'Adults 18 to 65 years with HbA1c ≥ 7.5%'), 'Age: 50. HbA1c 8.2 %.')).toBe('met');
    expect(verdict(c('x', 'Adults 18 to 65 years with HbA1c ≥ 7.5%'), 'Age: 70. HbA1c 8.2 %.')).toBe('not_met');
    expect(verdict(c('x', 'Aged 18-75 years, with BMI ≥ 30'), 'Age: 50. BMI 27.')).toBe('not_met');
    expect(verdict(c('x', 'Adults aged 40 to 75 with type 2 diabetes'), 'A 62-year-old man with type 2 diabetes since 2015.')).toBe('met');
  });

  it('reads no value from a time, a stage or a count', () => {
    expect(verdict(c('egfr', 'eGFR < 30 mL/min', 'critical_exclusion'), 'Creatinine 0.9 mg/dL. Repeat eGFR in 2 weeks.')).toBe('unclear');
    expect(verdict(c('a1c', 'HbA1c ≥ 7.5%'), 'Next HbA1c in 3 months.')).toBe('unclear');
    expect(verdict(c('a1c', 'HbA1c ≥ 7.5%'), 'HbA1c não realizada há 6 meses.')).toBe('unclear');
    expect(verdict(c('egfr', 'eGFR < 30 mL/min'), 'eGFR stage 3 CKD.')).toBe('unclear');
    expect(verdict(c('a1c', 'HbA1c < 7%'), 'HbA1c pendente; colhida em 2 tubos.')).toBe('unclear');
  });

  it("keeps a field answered 'no' apart from the next line, and list items apart", () => {
    expect(
      verdict(c('dm', 'Diabetes mellitus tipo 2'), 'Alergias medicamentosas conocidas: no\nDiabetes mellitus tipo 2: sí, en tratamiento con metformina'),
    ).toBe('met');
    expect(verdict(c('copd', 'COPD'), 'Current smoker: no\nCOPD GOLD 3, FEV1 45 %')).toBe('met');
    expect(sentences('1. Hypertension - on\n2. Type 2 diabetes')).toEqual(['1. Hypertension - on', '2. Type 2 diabetes']);
  });
});
