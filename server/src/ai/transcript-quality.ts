/**
 * What a document written from a transcript says about that transcript's quality: a line at its end, so that its
 * copy, its PDF and the record system's copy carry it. The local speech engine's transcripts are demonstration
 * quality; any engine's transcript with many words it was not sure of is said to be so.
 */
import type { Language } from '../../../contract/constants.js';
import { isDemoQualityEngine, lowConfidence } from '../../../contract/transcript-quality.js';

const DEMO: Record<Language, string> = {
  pt: 'Transcrição do motor de voz local: qualidade de demonstração — confirme cada valor na gravação.',
  en: 'Transcript by the local speech engine: demo quality — check every value against the recording.',
  de: 'Transkript der lokalen Spracherkennung: Demo-Qualität — prüfen Sie jeden Wert anhand der Aufnahme.',
  es: 'Transcripción del motor de voz local: calidad de demostración — compruebe cada valor con la grabación.',
};
const LOW: Record<Language, string> = {
  pt: 'Muitas palavras da transcrição não foram ouvidas com clareza — confirme cada valor na gravação.',
  en: 'Many words of the transcript were not heard clearly — check every value against the recording.',
  de: 'Viele Wörter des Transkripts wurden nicht sicher erkannt — prüfen Sie jeden Wert anhand der Aufnahme.',
  es: 'Muchas palabras de la transcripción no se oyeron con claridad — compruebe cada valor con la grabación.',
};

/** The line a document ends with (italic), or undefined for a transcript nothing is to be said about. */
export function transcriptQualityLine(input: { engines: string[]; transcript: string }, language: Language): string | undefined {
  const said = [...(input.engines.some(isDemoQualityEngine) ? [DEMO[language]] : []), ...(lowConfidence(input.transcript) ? [LOW[language]] : [])];
  return said.length ? `_${said.join(' ')}_` : undefined;
}

const ALL_LINES = [...Object.values(DEMO), ...Object.values(LOW)];

/**
 * A document's text without the quality line it was given: a new version (a change asked for, notes corrected)
 * is written from the text alone and ends with the line of its own transcript.
 */
export function withoutQualityLine(text: string): string {
  return text
    .split('\n')
    .filter((line) => {
      const inner = line.trim().replace(/^_|_$/g, '');
      return !(inner && ALL_LINES.some((l) => inner.includes(l)));
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
