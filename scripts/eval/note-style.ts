/** How a note reads: fillers, fragments, sentences copied word for word, length, and the follow-up interval. */
import { FILLERS, FOLLOW_UP_CUES } from './lexicon.js';
import { numbersAsDigits } from './spoken-numbers.js';
import { fold, plainWords } from './text.js';

export type Fillers = { words: number; fillers: number; found: string[] };

/** Conversation habits in the note's lines, and the note's word count. */
export function fillersIn(lines: string[]): Fillers {
  const text = lines.map((l) => fold(l)).join('\n');
  const found: string[] = [];
  for (const f of FILLERS) for (const _ of text.matchAll(f.pattern)) found.push(f.name);
  return { words: plainWords(text).length, fillers: found.length, found };
}

/** Lines of three words or fewer ('Brian.', 'Yeah, right.'): pieces of talk, not note lines. */
export const fragments = (lines: string[]): number => lines.filter((l) => plainWords(l).length <= 3).length;

const sentencesOf = (lines: string[]) => lines.flatMap((l) => l.split(/(?<=[.?!])\s+/)).filter((s) => s.trim());

/** The transcript's words in order, speaker labels left out, for looking up copied sentences. */
const transcriptWords = (transcript: string) => ` ${plainWords(transcript.replace(/^\s*(?:clinician|patient)\s*:\s*/gim, '')).join(' ')} `;

export type Verbatim = { sentences: number; verbatim: number; examples: string[] };

/** Note sentences of six words or more found word for word in the transcript (case and punctuation aside). */
export function verbatim(lines: string[], transcript: string): Verbatim {
  const said = transcriptWords(transcript);
  const out: Verbatim = { sentences: 0, verbatim: 0, examples: [] };
  for (const sentence of sentencesOf(lines)) {
    const words = plainWords(sentence);
    if (words.length < 6) continue;
    out.sentences++;
    if (said.includes(` ${words.join(' ')} `)) {
      out.verbatim++;
      if (out.examples.length < 3) out.examples.push(sentence);
    }
  }
  return out;
}

export type Interval = { value: number; unit: 'day' | 'week' | 'month' | 'year' };

const UNIT = '(day|week|month|year)s?';
const AMOUNT = '(\\d+(?:\\.\\d+)?|an?|one)';
const unitOf = (u: string) => u.toLowerCase() as Interval['unit'];
const numberOf = (n: string) => (/^(an?|one)$/i.test(n) ? 1 : Number(n));

/** The first follow-up interval a text states: 'follow up in 2 weeks', 'return in a month', 'a 6-month follow-up'. */
export function followUpInterval(text: string): Interval | undefined {
  const sentences = numbersAsDigits(text)
    .split(/(?<=[.?!])\s+|\n+/)
    .filter((s) => FOLLOW_UP_CUES.test(s) || /\bnext (?:visit|appointment|consultation)\b/i.test(s));
  for (const s of sentences) {
    const within = new RegExp(`\\bin\\s+(?:about\\s+|approximately\\s+|another\\s+|roughly\\s+)?${AMOUNT}(?:\\s*(?:-|to|or)\\s*\\d+)?\\s*${UNIT}\\b`, 'i').exec(
      s,
    );
    if (within) return { value: numberOf(within[1]!), unit: unitOf(within[2]!) };
    const before = new RegExp(`\\b${AMOUNT}[\\s-]+${UNIT}\\s+(?:follow[- ]?up|followup|recheck|visit|appointment)`, 'i').exec(s);
    if (before) return { value: numberOf(before[1]!), unit: unitOf(before[2]!) };
    // A next-consultation line that states only the interval ('Next consultation: 2 weeks').
    const bare = new RegExp(`:\\s*${AMOUNT}\\s*${UNIT}\\b`, 'i').exec(s);
    if (bare) return { value: numberOf(bare[1]!), unit: unitOf(bare[2]!) };
  }
  return undefined;
}

/** Whether the note states the reference's follow-up interval (same number, same unit) on a follow-up line or sentence. */
export function followUpCaptured(noteLines: string[], interval: Interval): boolean {
  const lines = noteLines.flatMap((l) => l.split(/(?<=[.?!])\s+/));
  return lines.some((l) => {
    const found = followUpInterval(l);
    return found !== undefined && found.value === interval.value && found.unit === interval.unit;
  });
}
