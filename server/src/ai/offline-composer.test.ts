import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../contract/constants.js';
import { BLANK, ChangeNotApplied, cleanDictation, COMPOSER_LABEL, composeDocument } from './offline-composer.js';
import type { DocumentRequest } from './text-generator.js';

const KINDS = ['consultation_notes', 'clinical_summary', 'sick_leave_certificate', 'referral_letter', 'patient_summary', 'dictation', 'report'];
const base = (over: Partial<DocumentRequest> = {}): DocumentRequest => ({
  documentKind: 'consultation_notes',
  language: 'en',
  transcript: 'The patient has had chest pain for two days.',
  data: {},
  clinician: { name: 'Dra. Ana Lima' },
  date: new Date('2026-11-22T10:00:00Z'),
  ...over,
});

describe('offline composer', () => {
  for (const language of LANGUAGES) {
    for (const documentKind of KINDS) {
      it(`${documentKind} in ${language}: labelled, complete, nothing invented`, () => {
        const text = composeDocument(base({ documentKind, language }));
        expect(text).toContain(COMPOSER_LABEL[language]);
        expect(text).toMatch(/^# \S/);
        expect(text).toContain('Dra. Ana Lima');
        expect(text).not.toMatch(/undefined|null|\{|\}|NaN/);
        // Facts that were not given appear as marked blanks, never as made-up content.
        if (documentKind !== 'dictation') expect(text).toContain(BLANK[language]);
      });
    }
  }

  it('patient summary: addressed to the patient, the plan and every medicine, in the patient’s language when it differs', () => {
    const transcript = 'Tem uma amigdalite. Vai tomar amoxicilina 500 mg de 8 em 8 horas durante 7 dias. Beba muitos líquidos. Volte daqui a uma semana.';
    const same = composeDocument(
      base({ documentKind: 'patient_summary', language: 'pt', transcript, data: { medication: 'amoxicilina 500 mg 8/8 h 7 dias; paracetamol 1 g se dor' } }),
    );
    expect(same).toContain('# Resumo da sua consulta');
    expect(same).toContain('## Os seus medicamentos\n- amoxicilina 500 mg 8/8 h 7 dias\n- paracetamol 1 g se dor');
    expect(same).toContain('## Quando procurar ajuda mais cedo');
    expect(same).not.toContain('como foram ditas');

    // For a German-speaking patient: the document's words in German; the consultation's sentences as said, and the patient is told so.
    const german = composeDocument(base({ documentKind: 'patient_summary', language: 'pt', outputLanguage: 'de', transcript }));
    expect(german).toContain('# Zusammenfassung Ihres Arztbesuchs');
    expect(german).toContain(COMPOSER_LABEL.de);
    expect(german).toContain('(Portugiesisch)');
    expect(german).toContain('## Was Sie jetzt tun sollten');
    expect(german).toMatch(/## Was Sie jetzt tun sollten\n(- .*\n)*- Beba muitos líquidos\./);
    // The medicine heard with its dose and duration, and the follow-up, as the patient needs them.
    expect(german).toContain('## Ihre Medikamente\n- amoxicilina 500 mg de 8 em 8 horas durante 7 dias');
    expect(german).toContain('## Ihr nächster Termin\numa semana');
    expect(german).not.toContain(BLANK.pt);
  });

  it('puts the structured notes data where it belongs', () => {
    const text = composeDocument(
      base({
        data: {
          bloodpressure: '140/90',
          medication: 'metformin 500 mg twice a day',
          physical_exam: 'Lungs clear.',
          next_consultation_date: '2026-12-06',
          extra_text: 'Stable angina',
        },
      }),
    );
    expect(text).toContain('- Blood pressure: 140/90');
    expect(text).toContain('Lungs clear.');
    expect(text).toContain('- Medication: metformin 500 mg twice a day');
    expect(text).toContain('- Next consultation: 2026-12-06');
    expect(text).toContain('## Assessment\n- Stable angina');
    expect(text).toContain('- The patient has had chest pain for 2 days.');
  });

  it('dates in the document language', () => {
    expect(composeDocument(base({ language: 'pt' }))).toContain('22 de novembro de 2026');
    expect(composeDocument(base({ language: 'de' }))).toContain('22. November 2026');
  });

  it('writes every document after a correction from the corrected notes, not from what they corrected', () => {
    const transcript = 'Temperature 39.5. I will start amoxicillin 500 mg three times a day. Come back in 2 weeks.';
    const editedNotes = [
      '# Consultation notes',
      COMPOSER_LABEL.en,
      '',
      '**Date:** 22 November 2026',
      '',
      '**Clinician:** Dra. Ana Lima',
      '',
      '## Subjective',
      '- Cough for 3 days.',
      '',
      '**Allergies:** penicillin',
      '',
      '## Objective',
      '- Temperature: 37.9 °C',
      '',
      '## Assessment',
      '- Viral bronchitis.',
      '',
      '## Plan',
      '- Rest and fluids.',
      '- Medication: paracetamol 1 g as needed',
      '- Next consultation: in 1 week',
      '',
    ].join('\n');
    for (const documentKind of ['clinical_summary', 'referral_letter', 'patient_summary']) {
      const text = composeDocument(base({ documentKind, transcript, editedNotes, data: { medication: 'amoxicillin 500 mg' } }));
      expect(text).not.toMatch(/39\.5|amoxicillin|2 weeks/);
      expect(text).toContain('paracetamol 1 g as needed');
      if (documentKind !== 'patient_summary') expect(text).toContain('Temperature: 37.9 °C');
      expect(text).toContain(documentKind === 'patient_summary' ? 'Rest and fluids.' : 'Cough for 3 days.');
    }
    expect(composeDocument(base({ documentKind: 'clinical_summary', transcript, editedNotes }))).toContain('## Next consultation\nin 1 week');
  });

  it('says why the patient came from the answer to the opening question, never a greeting', () => {
    const transcript =
      'Clinician: Good morning, nice to see you. What brings you in today?\nPatient: I have had a sore throat and a fever for three days.\nClinician: I think this is tonsillitis.';
    const summary = composeDocument(base({ documentKind: 'patient_summary', transcript }));
    expect(summary).toContain('## Why you came\n- I have had a sore throat and a fever for 3 days.');
    expect(summary).not.toMatch(/Good morning|nice to see you/);
    // The same from notes the clinician corrected.
    const editedNotes = '# Consultation notes\n\n## Subjective\n- What brings you in today? I have had a sore throat for 3 days.\n';
    expect(composeDocument(base({ documentKind: 'patient_summary', transcript, editedNotes }))).toContain(
      '## Why you came\n- I have had a sore throat for 3 days.',
    );
  });

  it('never writes a change request it cannot apply into the document', () => {
    expect(() => composeDocument(base({ change: { previousText: '# Notes\nBody', instructions: 'Make it sound more formal.' } }))).toThrow(ChangeNotApplied);
  });

  it('changes the value of a named measurement, not its name', () => {
    const previousText = '# Notes\n\n## Objective\n- Heart rate: 80 bpm\n- The heart rate was 80 at rest.\n';
    const text = composeDocument(base({ change: { previousText, instructions: 'Change heart rate to 88 bpm' } }));
    expect(text).toContain('- Heart rate: 88 bpm');
    expect(text).toContain('The heart rate was 88 bpm at rest.');
    expect(text).not.toContain('88 bpm: 80');
  });

  it('cleans hesitations from a dictation', () => {
    expect(cleanDictation('um the patient uh has a cough , er since Monday', 'en')).toBe('the patient has a cough, since Monday');
    expect(cleanDictation('o doente hum tem tosse', 'pt')).toBe('o doente tem tosse');
  });
});
