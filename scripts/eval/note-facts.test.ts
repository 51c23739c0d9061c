import { describe, expect, it } from 'vitest';
import { noteBody } from './note-body.js';
import { decimalsCut, invented, referenceFacts, referenceParts, refSectionOf, scoreFacts, wrongValues } from './note-facts.js';
import { quantitiesIn, sameQuantity, unitMismatch } from './quantities.js';

const REFERENCE = `CHIEF COMPLAINT

Follow-up of chronic problems.

HISTORY OF PRESENT ILLNESS

For his hypertension, this has been well controlled with lisinopril 20 mg a day. Fatigue for 5 weeks.

PHYSICAL EXAMINATION

• Neck: JVD 8 cm.
• Cardiovascular: 3/6 systolic ejection murmur.

VITALS

BP: 128/72.
Temperature: 98.6

RESULTS

Echocardiogram demonstrates decreased ejection fraction of 45%.

ASSESSMENT AND PLAN

Congestive heart failure.
• Medical Treatment: Increase Lasix to 80 mg daily. Continue lisinopril 20 mg daily.
`;

const TRANSCRIPT = `Clinician: How long have you felt tired? Patient: About five weeks.
Clinician: Your blood pressure is one twenty eight over seventy two, temperature ninety eight point six.
Clinician: Your heart failure: the echo shows an ejection fraction of forty five percent, and you have a three out of six murmur.
Clinician: We'll increase your lasix to eighty milligrams and continue lisinopril twenty milligrams. You have high blood pressure.`;

const NOTE = `# Consultation notes
_Assembled without AI from your inputs and the transcript. Review it before you use it._

## Subjective
- About 5 weeks of tiredness.
- Temperature 98. 6
- lisinopril 20 mg

## Objective
- Blood pressure: 128/72 mmHg
- Ejection fraction 45 %
- Weight: 154 kg

## Assessment
- Heart failure. Started metformin.

## Plan
- Increase lasix to 80 mg.
`;

describe('reference sections', () => {
  it('maps headings and MTS-Dialog headers to S/O/A/P', () => {
    expect(
      ['CHIEF COMPLAINT', 'HPI:', 'REVIEW OF SYSTEMS', 'SOCIAL HISTORY', 'CURRENT MEDICATIONS:', 'GENHX', 'FAM/SOCHX', 'PASTMEDICALHX', 'ALLERGY'].map(
        refSectionOf,
      ),
    ).toEqual(Array(9).fill('S'));
    expect(['PHYSICAL EXAMINATION', 'PHYSICAL EXAM', 'VITALS REVIEWED', 'RESULTS', 'EXAM', 'IMAGING', 'LABS'].map(refSectionOf)).toEqual(Array(7).fill('O'));
    expect(['ASSESSMENT AND PLAN', 'ASSESSMENT', 'PLAN', 'IMPRESSION', 'INSTRUCTIONS', 'DIAGNOSIS', 'DISPOSITION'].map(refSectionOf)).toEqual(
      Array(7).fill('AP'),
    );
    expect(refSectionOf('EDCOURSE')).toBe('OP');
    expect(refSectionOf('MSK:')).toBeUndefined();
  });
  it('cuts a reference at its headings; value lines in capitals stay content', () => {
    const parts = referenceParts('VITALS\n\nBP: 169/74.\nHR: 98.\n\nASSESSMENT\n\nCOPD.');
    expect(parts).toEqual([
      { section: 'O', text: '\nBP: 169/74.\nHR: 98.\n\n' },
      { section: 'AP', text: '\nCOPD.\n' },
    ]);
  });
});

describe('facts kept and placed', () => {
  const facts = referenceFacts(REFERENCE);
  const labels = facts.map((f) => f.label);
  it('finds numbers with units, ratios, decimals, measurement-line values, medicines and diagnoses, each once', () => {
    expect(labels).toEqual(
      expect.arrayContaining([
        '20 mg',
        '5 week',
        '8 cm',
        '3/6',
        '128/72',
        '98.6',
        '45 %',
        '80 mg',
        'lisinopril',
        'furosemide',
        'hypertension',
        'fatigue',
        'heart failure',
      ]),
    );
    expect(labels.filter((l) => l === '20 mg')).toHaveLength(1);
    expect(facts.find((f) => f.label === '20 mg')!.sections).toEqual(new Set(['S', 'AP']));
  });
  it('counts only facts the transcript states, and scores kept and placed', () => {
    const score = scoreFacts(facts, noteBody(NOTE), TRANSCRIPT);
    // '8 cm' and 'fatigue' are never said (the patient says 'tired').
    expect(score.countable).toBe(facts.length - 2);
    // Said but not in the note: the murmur's grade and the word, the temperature (written '98. 6'), 'high blood pressure'.
    expect(score.missing.sort()).toEqual(['3/6', '98.6', 'hypertension', 'murmur']);
    expect(score.kept + score.missing.length).toBe(score.countable);
  });
  it('places a fact by any section the reference gives it: 20 mg is in HPI and A&P, the note has it in Subjective', () => {
    const score = scoreFacts(referenceFacts(REFERENCE), noteBody(NOTE), TRANSCRIPT);
    expect(score.misplaced).toEqual([]);
    expect(score.placed).toBe(score.kept);
    const moved = scoreFacts(referenceFacts(REFERENCE), noteBody(NOTE.replace('## Objective', '## Plan')), TRANSCRIPT);
    expect(moved.misplaced.sort()).toEqual(['128/72 (expected in objective)', '45 % (expected in objective)']);
  });
  it('reads "a week" in a note as 1 week, spelled units, and decimals written with a stop for "point"', () => {
    const facts2 = referenceFacts('PLAN\n\nFollow up in 1 week. Zofran 4 mg.\n\nVITALS\n\nTemperature: 98.2');
    const s = scoreFacts(
      facts2,
      noteBody('## Plan\n- see you in a week\n- Zofran 4 M G'),
      'Clinician: Zofran four M G. See you in a week. Your temperature is ninety eight. Two',
    );
    expect(s.countable).toBe(4);
    expect(s.missing).toEqual(['98.2']);
  });
  it('an MTS-Dialog reference is one section, named by its header', () => {
    const facts2 = referenceFacts('Accutane for acne, 40 mg daily.', 'MEDICATIONS');
    expect(facts2.map((f) => [f.label, [...f.sections]])).toEqual([
      ['40 mg', ['S']],
      ['isotretinoin', ['S']],
      ['acne', ['S']],
    ]);
  });
});

describe('wrong values, decimals cut, invented', () => {
  it('flags values said by nobody and units changed', () => {
    const w = wrongValues(noteBody(NOTE), `${TRANSCRIPT} I weigh one fifty four pounds.`, REFERENCE);
    expect(w.unitMismatches).toEqual(['154 kg (said: 154 pounds)']);
    expect(w.wrong).toEqual(['154 kg']);
    const w2 = wrongValues(noteBody('## Objective\n- Blood pressure: 25/76 mmHg\n- lisinopril 20 mg'), TRANSCRIPT, REFERENCE);
    expect(w2.wrong).toEqual(['25/76 mmHg in "Blood pressure: 25/76 mmHg"']);
    // A right conversion beside the said value is not wrong; a wrong one is.
    const w3 = wrongValues(
      noteBody('## Objective\n- Temperature: 98.6 °F (37 °C)\n- Weight: 7 lb (3.2 kg), 8 lb (9 kg)'),
      'temperature ninety eight point six, weight seven pounds, eight pounds',
      '',
    );
    expect(w3.wrong).toEqual(['9 kg in "Weight: 7 lb (3.2 kg), 8 lb (9 kg)"']);
    expect(w2.checked).toBe(2);
  });
  it('finds a decimal written in pieces', () => {
    expect(decimalsCut(NOTE, TRANSCRIPT)).toEqual({ decimals: 1, cut: ['98.6'] });
    expect(decimalsCut('Take 5 mg.', 'Take two point five milligrams.')).toEqual({ decimals: 1, cut: ['2.5 mg'] });
    expect(decimalsCut('Take 2.5 mg.', 'Take two point five milligrams.').cut).toEqual([]);
    // ACI-Bench writes a spoken 'point' as a full stop: 'aldactone twelve . five milligrams', 'a1c at seven . three'.
    expect(
      decimalsCut('- add aldactone 12.\n- 5 mg daily\n- your a1c was 7.\n- 3', 'Add aldactone twelve. Five milligrams daily. Your a1c was seven. Three.'),
    ).toEqual({ decimals: 2, cut: ['12.5 mg', '7.3'] });
  });
  it('names medicines and diagnoses the transcript never said, in any inflection or spelling', () => {
    expect(invented(NOTE, TRANSCRIPT)).toEqual(['metformin (medicine)']);
    expect(invented('Fractures healed; on Lasix.', 'he had a fracture, takes furosemide')).toEqual([]);
  });
});

describe('quantities', () => {
  it('compares numbers as numbers and units by kind', () => {
    const [a] = quantitiesIn('45%');
    const [b] = quantitiesIn('45 percent');
    expect(sameQuantity(a!, b!)).toBe(true);
    const [kg] = quantitiesIn('154 kg');
    const [lb] = quantitiesIn('one fifty four pounds');
    expect(unitMismatch(kg!, lb!)).toBe(true);
    expect(quantitiesIn('one plus pitting edema, 2+ pulses').map((q) => `${q.value} ${q.unit}`)).toEqual(['1 +', '2 +']);
    expect(quantitiesIn('265 mg per deciliter, 265 milligrams per deciliter, 265 mg/dL').map((q) => q.unit)).toEqual(['mg/dl', 'mg/dl', 'mg/dl']);
    expect(quantitiesIn('seen 01/10/09 at 10:30 for COVID-19, 2nd visit').map((q) => q.value)).toEqual([]);
  });
});
