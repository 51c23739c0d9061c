/**
 * The transcript forms the product receives, made from one dialogue's turns:
 *  - labelled:   one line per turn, 'Clinician: …' / 'Patient: …' (the product's own labels), punctuation as said;
 *  - punctuated: the same lines without labels;
 *  - asr:        lower case, no punctuation (apostrophes inside words kept), numbers in words, no labels, turns
 *                joined by spaces, as the local speech engine writes;
 *  - real-asr:   ACI-Bench's real speech-engine output, made like asr.
 * ACI-Bench's tokenised text is tidied first (no space before punctuation, "do n't" → "don't", "gon na" →
 * "gonna") and the first letter of each sentence capitalised, as a speech engine that punctuates writes it.
 */
import { renderTurns, speakerLabel, type SpeakerTurn } from '../../contract/speakers.js';
import type { Turn } from './datasets.js';

export const FORMS = ['labelled', 'punctuated', 'asr', 'real-asr'] as const;
export type Form = (typeof FORMS)[number];

/** ACI-Bench's tokenisation undone, and each sentence opened with a capital. */
export function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/ (n't|'(?:re|s|ll|ve|m|d))\b/gi, '$1')
    .replace(/\b(gon|wan|got) (na|ta)\b/gi, '$1$2')
    .replace(/ ([,.?!;:%])/g, '$1')
    .replace(/\$ (?=\d)/g, '$')
    .trim()
    .replace(/(^|[.?!]\s+)([a-z])/g, (_m, before: string, letter: string) => before + letter.toUpperCase());
}

export function labelled(turns: Turn[]): string {
  const rendered: SpeakerTurn[] = turns.map((t) => ({ speaker: t.speaker, label: speakerLabel(t.speaker, 'en'), text: tidy(t.text) }));
  return renderTurns(rendered);
}

export const punctuated = (turns: Turn[]): string => turns.map((t) => tidy(t.text)).join('\n');

const ONES = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** An integer in words, as a speech engine writes what it hears ('one hundred twenty eight'). */
export function integerWords(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return `${TENS[Math.floor(n / 10)]}${n % 10 ? ` ${ONES[n % 10]}` : ''}`;
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${integerWords(n % 100)}` : ''}`;
  if (n < 1_000_000) return `${integerWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${integerWords(n % 1000)}` : ''}`;
  return String(n)
    .split('')
    .map((d) => ONES[Number(d)])
    .join(' ');
}

/** Digits as they are said: '2.5' two point five, '128/72' one hundred twenty eight over seventy two, '45%' forty five percent. */
export function digitsAsWords(text: string): string {
  return text
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(
      /(\d+)\.(\d+)/g,
      (_m, whole: string, part: string) =>
        `${integerWords(Number(whole))} point ${part
          .split('')
          .map((d) => ONES[Number(d)])
          .join(' ')}`,
    )
    .replace(/(\d)\s*\/\s*(\d)/g, '$1 over $2')
    .replace(/(\d)\s*%/g, '$1 percent')
    .replace(/(\d)\s*\+/g, '$1 plus')
    .replace(/°\s*f\b/gi, ' degrees fahrenheit')
    .replace(/°\s*c\b/gi, ' degrees celsius')
    .replace(/°/g, ' degrees')
    .replace(/\d+/g, (n) => ` ${integerWords(Number(n))} `);
}

export function asr(turns: Turn[]): string {
  const words = turns.map((t) =>
    digitsAsWords(tidy(t.text))
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      // Apostrophes stay inside words ("don't", "patient's"); every other mark goes.
      .replace(/[^a-z0-9'\s]+/g, ' ')
      .replace(/(^|\s)'+|'+(?=\s|$)/g, '$1'),
  );
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

export function transcriptOf(turns: Turn[], form: Form): string {
  if (form === 'labelled') return labelled(turns);
  if (form === 'punctuated') return punctuated(turns);
  return asr(turns);
}
