import { describe, expect, it } from 'vitest';
import { assembleTranscription, type TranscribedPart } from './transcription.js';

const part = (order: number, transcriptionStatus = 'done'): TranscribedPart => ({
  order,
  transcript: transcriptionStatus === 'done' ? `words ${order}` : null,
  speakerTurns: null,
  transcriptionStatus,
});

describe('the marks of missing words', () => {
  const parts = [part(0), part(1, 'failed'), part(3, 'pending'), part(5)];
  const marked = (language?: 'pt' | 'en' | 'de' | 'es') => assembleTranscription(parts, { expectedParts: 7, waitOver: true, language }).text;

  it('are written in the language of the text they sit in', () => {
    expect(marked('en')).toBe(
      'words 0 [part 2 could not be transcribed] [part 3 did not arrive] [part 4 was not transcribed in time] [part 5 did not arrive] words 5 [part 7 did not arrive]',
    );
    expect(marked('pt')).toBe(
      'words 0 [a parte 2 não pôde ser transcrita] [a parte 3 não chegou] [a parte 4 não foi transcrita a tempo] [a parte 5 não chegou] words 5 [a parte 7 não chegou]',
    );
    expect(marked('de')).toContain('[Teil 3 ist nicht angekommen]');
    expect(marked('es')).toContain('[la parte 3 no llegó]');
  });

  it('name a stretch of missing parts once, in each language', () => {
    const gap = (language: 'pt' | 'en' | 'de' | 'es') => assembleTranscription([part(0)], { expectedParts: 3, waitOver: true, language }).text;
    expect(gap('en')).toBe('words 0 [parts 2–3 did not arrive]');
    expect(gap('pt')).toBe('words 0 [as partes 2–3 não chegaram]');
    expect(gap('de')).toBe('words 0 [Teile 2–3 sind nicht angekommen]');
    expect(gap('es')).toBe('words 0 [las partes 2–3 no llegaron]');
  });

  it('stay English where no language is said (consultations begun before it was kept)', () => {
    expect(marked()).toBe(marked('en'));
  });
});
