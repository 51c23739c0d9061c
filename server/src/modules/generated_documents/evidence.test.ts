import { describe, expect, it } from 'vitest';
import { composeDocument, BLANK, COMPOSER_LABEL } from '../../ai/offline-composer.js';
import { documentSentences, evidenceFor, linkEvidence, partsInTranscript } from './evidence.js';

const transcript =
  'Good morning. I have had chest pain for two days, mostly on the stairs. Any allergies? Penicillin. Your blood pressure is one hundred and fifty over ninety five. I will request an ECG and refer you to cardiology.';
const frame = [COMPOSER_LABEL.en, BLANK.en, 'Dr. A. Lima'];

describe('linked evidence', () => {
  it('links every sentence of a note written without a model to the transcript span it comes from', () => {
    const note = composeDocument({
      documentKind: 'consultation_notes',
      language: 'en',
      transcript,
      data: {},
      clinician: { name: 'Dr. A. Lima' },
      date: new Date('2026-11-23T10:00:00Z'),
    });
    const evidence = linkEvidence(note, { transcript, inputs: ['23 November 2026'], language: 'en', frame });
    expect(evidence.sentences.length).toBeGreaterThan(4);
    expect(evidence.sentences.filter((s) => s.source === 'none')).toEqual([]);
    const pain = evidence.sentences.find((s) => s.text.startsWith('I have had chest pain'))!;
    expect(transcript.slice(pain.spans[0]!.start, pain.spans[0]!.end)).toBe('I have had chest pain for two days, mostly on the stairs.');
    const pressure = evidence.sentences.find((s) => s.text.includes('150/95 mmHg'))!;
    expect(transcript.slice(pressure.spans[0]!.start, pressure.spans[0]!.end)).toContain('one hundred and fifty over ninety five');
    expect(evidence.flagged).toEqual([]);
  });

  it("marks a model's sentence that nothing supports, and flags its numbers and medicines found nowhere", () => {
    const written =
      '# Notes\n\n## Subjective\n- Chest pain for 2 days on the stairs.\n- Started aspirin 300 mg last week.\n\n## Plan\n- ECG; referral to cardiology.\n- Review in 3 days.';
    const evidence = linkEvidence(written, { transcript, inputs: [], language: 'en', frame: [] });
    expect(evidence.sentences.map((s) => s.source)).toEqual(['transcript', 'none', 'transcript', 'none']);
    expect(evidence.flagged.sort()).toEqual(['3', '300', 'aspirin']);
  });

  it('flags the diagnoses a model names that were never said, across the four languages and their synonyms', () => {
    const said = 'He has diabetes and high blood pressure, known hypertension for years. Coughing with fever since Monday.';
    const written =
      '## Assessment\n- Community-acquired pneumonia.\n- Type 2 diabetes mellitus, arterial hypertension.\n- No signs of heart failure.\n\n## Plan\n- Amoxicillin.';
    const evidence = linkEvidence(written, { transcript: said, inputs: [], language: 'en', frame: [] });
    // Hypertension was said; diabetes was, but not its type; pneumonia and heart failure never were.
    expect(evidence.flagged.sort()).toEqual(['2', 'Amoxicillin', 'Type 2 diabetes mellitus', 'heart failure', 'pneumonia'].sort());
    // Said in Portuguese, written in the same words or the screener's synonyms: nothing to flag.
    const pt = linkEvidence('## Avaliação\n- Pneumonia adquirida na comunidade.\n- Insuficiência cardíaca conhecida.', {
      transcript: 'Tem uma pneumonia, e já sabemos da insuficiência cardíaca.',
      inputs: [],
      language: 'pt',
      frame: [],
    });
    expect(pt.flagged).toEqual([]);
  });

  it("links a sentence taken from the clinician's inputs to them", () => {
    const evidence = linkEvidence('## Plan\n- Metformin 500 mg twice a day.', {
      transcript,
      inputs: ['metformin 500 mg twice a day'],
      language: 'en',
      frame: [],
    });
    expect(evidence.sentences).toEqual([{ text: 'Metformin 500 mg twice a day.', spans: [], source: 'inputs' }]);
    expect(evidence.flagged).toEqual([]);
  });

  it('reads the sentences of a document, not its headings, labels or frame', () => {
    expect(
      documentSentences('# Title\n_Label text._\n\n**Date:** [to be completed]\n## Plan\n- Rest. Drink water.\n- Medication: ibuprofen', [
        'Label text',
        '[to be completed]',
      ]),
    ).toEqual(['Rest.', 'Drink water.', 'ibuprofen']);
  });
});

describe('linked evidence on a long consultation', () => {
  it('links every sentence of an hour-long consultation (1,500 utterances of about the same words, the index’s worst case)', () => {
    const transcript = Array.from(
      { length: 1500 },
      (_, i) => `the pain started ${i % 7} days ago and the pressure is one hundred and ${20 + (i % 50)} over eighty`,
    ).join('\n');
    const date = new Date('2026-11-23T10:00:00Z');
    const note = composeDocument({ documentKind: 'consultation_notes', language: 'en', transcript, data: {}, clinician: { name: 'X' }, date });
    const evidence = evidenceFor(note, { transcript, data: {}, clinician: 'X', language: 'en', date });
    expect(evidence.sentences.filter((s) => s.source === 'none')).toEqual([]);
    expect(evidence.sentences.length).toBeGreaterThan(1000);
  });
});

describe('parts in a labelled transcript', () => {
  it('finds a part whose speaker went on from the part before (its label written once)', () => {
    const transcript = 'Clinician: what brings you in\nPatient: a cough for two weeks\nClinician: any fever';
    const parts = [
      { id: 'p0', order: 0, transcript: 'Clinician: what brings you in\nPatient: a cough for', durationMs: 5000 },
      { id: 'p1', order: 1, transcript: 'Patient: two weeks\nClinician: any fever', durationMs: 5000 },
    ];
    expect(partsInTranscript(transcript, parts).map((p) => [p.id, transcript.slice(p.start, p.end)])).toEqual([
      ['p0', 'Clinician: what brings you in\nPatient: a cough for'],
      ['p1', 'two weeks\nClinician: any fever'],
    ]);
  });
});

describe('the guard on numbers', () => {
  const input = {
    transcript: 'Your temperature is ninety nine point seven. Tenderness at the fifth lumbar level. Come at half past eight.',
    data: {},
    clinician: 'Dr. X',
    language: 'en' as const,
    date: new Date('2026-11-27T10:00:00Z'),
  };
  it('checks a decimal whole, never its pieces, and leaves numbers inside words and times alone', () => {
    const flagged = evidenceFor('## Objective\n- Temperature 99.9 °F.\n- Pain at L5, 3rd visit, appointment at 8:30.\n', input).flagged;
    expect(flagged).toEqual(['99.9']);
    expect(evidenceFor('## Objective\n- Temperature 99.7 °F.\n', input).flagged).toEqual([]);
  });
  it('names a term once whatever its case', () => {
    expect(evidenceFor('Diabetes. Known diabetes.', input).flagged).toEqual(['Diabetes']);
  });
});
