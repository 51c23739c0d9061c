import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../contract/constants.js';
import { BLANK, cleanDictation, COMPOSER_LABEL, composeDocument } from './offline-composer.js';
import type { DocumentRequest } from './text-generator.js';

const KINDS = ['consultation_notes', 'clinical_summary', 'sick_leave_certificate', 'referral_letter', 'dictation', 'report'];
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
