import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../contract/constants.js';
import { BLANK, cleanDictation, COMPOSER_LABEL, composeDocument } from './offline-composer.js';
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
    const same = composeDocument(base({ documentKind: 'patient_summary', language: 'pt', transcript, data: { medication: 'amoxicilina 500 mg 8/8 h 7 dias; paracetamol 1 g se dor' } }));
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
        data: { bloodpressure: '140/90', medication: 'metformin 500 mg twice a day', physical_exam: 'Lungs clear.', next_consultation_date: '2026-12-06', extra_text: 'Stable angina' },
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

  it('keeps a change request it cannot apply visibly, unapplied, saying which ones it can', () => {
    const text = composeDocument(base({ change: { previousText: '# Notes\nBody', instructions: 'Make it sound more formal.' } }));
    expect(text).toContain('# Notes\nBody');
    expect(text).toContain('Changes requested (not applied: without AI only simple requests are applied');
    expect(text).toContain('Make it sound more formal.');
  });

  it('cleans hesitations from a dictation', () => {
    expect(cleanDictation('um the patient uh has a cough , er since Monday', 'en')).toBe('the patient has a cough, since Monday');
    expect(cleanDictation('o doente hum tem tosse', 'pt')).toBe('o doente tem tosse');
  });
});
