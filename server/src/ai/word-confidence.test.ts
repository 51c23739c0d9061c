import { describe, expect, it } from 'vitest';
import {
  hasUncertainWords,
  joinUncertain,
  uncertainPieces,
  uncertainShare,
  withoutUncertainMarks,
  withoutUncertainWords,
} from '../../../contract/uncertain-words.js';
import { markedUtterances, timedWords } from './local-transcriber.js';
import { composeDocument, suggestedInputs } from './offline-composer.js';
import { turnsInOrder } from './speaker-turns.js';
import { markedSegmentText, markedText } from './word-confidence.js';
import { linkEvidence } from '../modules/generated_documents/evidence.js';

const word = (text: string, confidence?: number) => ({ startMs: 0, endMs: 0, text, ...(confidence === undefined ? {} : { confidence }) });

describe('uncertain words', () => {
  it('marks a word the engine was unsure of, and a medicine name unless the engine was all but certain', () => {
    expect(markedText([word('do', 0.98), word('you', 0.99), word('the', 0.3), word('codeine', 0.99)])).toBe('do you [the?] codeine');
    expect(markedText([word('do', 0.98), word('you', 0.99), word('the', 0.3), word('codeine', 0.8)])).toBe('do you [the codeine?]');
    // An ordinary word at the same confidence stands.
    expect(markedText([word('chest', 0.8), word('pain', 0.8)])).toBe('chest pain');
    expect(markedText([word('ramipril', 0.85), word('daily', 0.85)])).toBe('[ramipril?] daily');
    // No confidence given: taken as it came.
    expect(markedText([word('losartan'), word('daily')])).toBe('losartan daily');
  });

  it("reads a segment's mean probability for all its words, with a medicine named in it held to more", () => {
    expect(markedSegmentText(word('any chest pain at all', 0.2))).toBe('[any chest pain at all?]');
    expect(markedSegmentText(word('she takes lisinopril and metformin', 0.6))).toBe('she takes [lisinopril?] and [metformin?]');
    expect(markedSegmentText(word('she takes lisinopril', 0.9))).toBe('she takes lisinopril');
  });

  it("keeps the local engine's utterance lines, with each word's posterior deciding its mark", () => {
    const out = [
      'do you the codeine',
      '<s> 0.000 0.020 1.000100',
      'do 0.030 0.190 0.98',
      'you 0.200 0.300 0.99',
      '<sil> 0.310 0.370 0.99',
      'the(2) 0.820 0.940 0.2',
      'codeine 0.95 1.39 0.6',
      '</s> 2.180 2.860 1.000000',
      'no',
      'no 3.0 3.2 0.97',
    ].join('\n');
    expect(markedUtterances(out)).toBe('do you [the codeine?]\nno');
    expect(timedWords(out).map((w) => w.confidence)).toEqual([0.98, 0.99, 0.2, 0.6, 0.97]);
  });

  it('marks within speakers’ turns and joins marks next to each other', () => {
    const turns = turnsInOrder(
      [
        { ...word('any', 0.9), startMs: 0, speaker: 'clinician' },
        { ...word('medicines', 0.3), startMs: 100, speaker: 'clinician' },
        { ...word('loratadine', 0.99), startMs: 900, speaker: 'patient' },
        { ...word('codeine', 0.4), startMs: 1000, speaker: 'patient' },
        { ...word('too', 0.35), startMs: 1100, speaker: 'patient' },
      ],
      'en',
    );
    expect(turns.map((t) => t.text)).toEqual(['any [medicines?]', 'loratadine [codeine too?]']);
  });

  it('reads the marks back for the view, the scorer and the share of uncertain words', () => {
    const text = 'i take [the codeine?] daily and [some?] aspirin';
    expect(hasUncertainWords(text)).toBe(true);
    expect(hasUncertainWords('any fever? [part 2 could not be transcribed]')).toBe(false);
    expect(uncertainPieces(text)).toEqual([
      { text: 'i take ', uncertain: false },
      { text: 'the codeine', uncertain: true },
      { text: ' daily and ', uncertain: false },
      { text: 'some', uncertain: true },
      { text: ' aspirin', uncertain: false },
    ]);
    expect(withoutUncertainMarks(text)).toBe('i take the codeine daily and some aspirin');
    expect(withoutUncertainWords(text)).not.toMatch(/codeine|some/);
    expect(uncertainShare(text)).toEqual({ uncertain: 3, words: 8 });
    expect(joinUncertain('[a?] [b?] c [d?]')).toBe('[a b?] c [d?]');
  });
});

describe('notes from a transcript with uncertain words', () => {
  const transcript = [
    'do you take any medicines [the codeine?]',
    'i take loratadine ten milligrams daily for my hay fever',
    'your temperature is [thirty?] degrees',
    'your blood pressure is one twenty four over seventy six',
    'any chest pain [aspirin?]',
    'no',
  ].join('\n');

  it('never lists an uncertain medicine or value, and keeps the sentence as heard, marked', () => {
    const note = composeDocument({
      documentKind: 'clinical_summary',
      language: 'en',
      transcript,
      data: {},
      clinician: { name: 'Dr. A' },
      date: new Date('2026-11-28T10:00:00Z'),
    });
    const lines = note.split('\n');
    const medication = lines[lines.indexOf('## Medication') + 1]!;
    expect(medication).toContain('loratadine');
    expect(medication).not.toMatch(/codeine|aspirin/);
    expect(note).not.toMatch(/Temperature: /);
    expect(note).toContain('- your temperature is [thirty?] degrees');
    expect(note).toContain('- any medicines [the codeine?]');
    expect(note).toContain('Blood pressure: 124/76 mmHg');
    const negative = composeDocument({
      documentKind: 'clinical_summary',
      language: 'en',
      transcript: 'Any chest pain [aspirin?] No.',
      data: {},
      clinician: { name: 'Dr. A' },
      date: new Date('2026-11-28T10:00:00Z'),
    });
    // A question answered 'no' is not turned into 'No chest pain' over an uncertain word.
    expect(negative).toContain('Any chest pain [aspirin?] No.');
    const suggested = suggestedInputs(transcript, 'en');
    expect(JSON.stringify(suggested)).not.toMatch(/codeine|aspirin|30/);
    expect(suggested.find((s) => s.processor_input_id === 'medication')?.value).toMatch(/loratadine/);
  });

  it('reads as unpunctuated an engine transcript whose only question marks are the marks of uncertain words', () => {
    const note = composeDocument({
      documentKind: 'consultation_notes',
      language: 'en',
      transcript: 'i have had a [cough?] for two weeks\ni will start amoxicillin five hundred milligrams three times a day',
      data: {},
      clinician: { name: 'Dr. A' },
      date: new Date('2026-11-28T10:00:00Z'),
    });
    expect(note).toContain('[cough?]');
    expect(note).toMatch(/Medication: amoxicillin 500 mg/);
  });

  it("flags a model's note that writes an uncertain word as a fact", () => {
    const evidence = linkEvidence('## Medication\n- Codeine 30 mg daily.\n- Loratadine 10 mg daily.', { transcript, inputs: [], language: 'en', frame: [] });
    expect(evidence.flagged).toContain('Codeine');
    expect(evidence.flagged).not.toContain('Loratadine');
  });
});

describe('marks an engine of several sentences per segment writes', () => {
  const segments = [
    { startMs: 0, endMs: 1, text: 'Good morning.', confidence: 0.9 },
    { startMs: 1, endMs: 2, text: 'My blood pressure at home was 180 over 110. I take codeine 30 mg twice a day!', confidence: Math.exp(-1.3) },
    { startMs: 2, endMs: 3, text: 'I am allergic to [inaudible] penicillin. See you in 2 weeks.', confidence: Math.exp(-1.2) },
    { startMs: 3, endMs: 4, text: '[BLANK_AUDIO]', confidence: 0.1 },
  ];

  it('marks each sentence on its own, and never keeps an engine’s own bracketed notes', () => {
    expect(markedText(segments)).toBe(
      'Good morning. [My blood pressure at home was 180 over 110?]. [I take codeine 30 mg twice a day?]! [I am allergic to penicillin?]. [See you in 2 weeks?].',
    );
  });

  it('gives no value, medicine, allergy or follow-up from them, and keeps each sentence whole and marked', () => {
    const transcript = markedText(segments);
    const note = composeDocument({
      documentKind: 'clinical_summary',
      language: 'en',
      transcript,
      data: {},
      clinician: { name: 'Dr. A' },
      date: new Date('2026-11-28T10:00:00Z'),
    });
    expect(note).not.toMatch(/Blood pressure: |\*\*Allergies|codeine 30 mg twice a day$/m);
    const lines = note.split('\n');
    expect(lines[lines.indexOf('## Medication') + 1]).toBe('[to be completed]');
    expect(lines[lines.indexOf('## Next consultation') + 1]).toBe('[to be completed]');
    expect(note).toContain('[I take codeine 30 mg twice a day?]');
    expect(suggestedInputs(transcript, 'en')).toEqual([]);
    // A mark whose only word was a filler goes; what is left is certain.
    expect(
      composeDocument({
        documentKind: 'clinical_summary',
        language: 'en',
        transcript: '[okay?] take ramipril ten milligrams daily',
        data: {},
        clinician: { name: 'Dr. A' },
        date: new Date(),
      }),
    ).toMatch(/## Medication\nramipril 10 mg daily/);
  });

  it('keeps marked values of corrected notes as the clinician left them, and lists no uncertain word as left out', async () => {
    const { readEditedNotes } = await import('./structurer/edited-notes.js');
    const edited = readEditedNotes(
      '# Notes\n\n## Subjective\n- [chest pain since monday?]\n\n## Plan\n- Medication: [amoxicillin 500 mg?]\n- Next consultation: [to be completed]',
    );
    expect(edited.medication).toBe('[amoxicillin 500 mg?]');
    expect(edited.followUp).toBeUndefined();
    expect(edited.sentences.map((s) => s.text)).toContain('[chest pain since monday?]');
    const { omittedFacts } = await import('../modules/generated_documents/omissions.js');
    expect(
      omittedFacts('# Notes\n\n## Subjective\n- Cough.', 'I have a cough. I take [codeine?] 30 mg twice a day. I am allergic to [penicillin?].', 'en'),
    ).toEqual([]);
  });
});
