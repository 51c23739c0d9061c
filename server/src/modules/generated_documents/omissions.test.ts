import { describe, expect, it } from 'vitest';
import { omittedFacts } from './omissions.js';

const transcript =
  'Clinician: Any allergies?\nPatient: Penicillin, it gives me a rash.\nClinician: Your blood pressure is one fifty over ninety five today. I think this is hypertension. I will start lisinopril ten milligrams once daily. Come back in two weeks.';

describe('said but not in the note', () => {
  it('lists each stretch with a fact the note does not state, in its section, with what is missing', () => {
    const note = '## Subjective\n- Allergic to penicillin (rash).\n\n## Objective\n- Blood pressure: 150/95 mmHg\n\n## Plan\n- Start an ACE inhibitor.\n';
    const omitted = omittedFacts(note, transcript, 'en');
    expect(omitted.map((o) => [o.section, o.missing])).toEqual([
      ['assessment', ['hypertension']],
      ['plan', ['lisinopril', '10 mg']],
      ['plan', ['2 weeks']],
    ]);
    for (const o of omitted) expect(transcript.slice(o.start, o.end).length).toBeGreaterThan(0);
    expect(omitted[1]!.text).toBe('I will start lisinopril 10 mg once daily.');
  });

  it('is empty when the note states every fact, in other words or numbers as a note writes them', () => {
    const note = 'Allergy: penicillin. BP 150/95. Hypertension. Lisinopril 10 mg once daily. Review in 2 weeks.';
    expect(omittedFacts(note, transcript, 'en')).toEqual([]);
  });

  it('lists a duration or an age the note does not state with its unit, though its number is elsewhere in the note', () => {
    const said = 'Patient: The knee pain started six months ago. I am forty eight years old.';
    expect(omittedFacts('## Subjective\n- Knee pain for 6 months; 48-year-old.', said, 'en')).toEqual([]);
    expect(
      omittedFacts('## Subjective\n- Knee pain.\n## Plan\n- Ibuprofen 400 mg, 6 tablets a day at most; review in 48 hours.', said, 'en').map((o) => o.missing),
    ).toEqual([['6 months'], ['48 years']]);
  });

  it('reads Portuguese, German and Spanish consultations', () => {
    expect(omittedFacts('## Plano\n- Vigiar.', 'Vou receitar metformina 500 mg duas vezes por dia.', 'pt').map((o) => o.missing)).toEqual([
      ['metformina', '500 mg'],
    ]);
    expect(omittedFacts('## Plan\n- Kontrolle.', 'Der Blutdruck ist hundertvierzig zu neunzig.', 'de').map((o) => o.missing)).toEqual([['140/90']]);
    expect(omittedFacts('## Plan\n- Control.', 'Creo que es una gastroenteritis.', 'es').map((o) => o.missing)).toEqual([['gastroenteritis']]);
  });
});
