/**
 * Which of an engine's words are written as uncertain (contract/uncertain-words.ts). A medicine's name needs more
 * than an ordinary word: an engine that hears 'codeine' in 'do you take any medicines' puts a drug in the patient's
 * mouth, and the notes would list it. Where an engine gives one confidence for several words (Whisper's segments),
 * an ordinary word follows the segment's and a medicine name needs the segment to be surer still.
 */
import { joinUncertain, markUncertain } from '../../../contract/uncertain-words.js';
import { MEDICINE_ENDING, MEDICINE_WORDS } from '../clinical/medicine-names.js';
import type { TimedSegment } from './transcriber.js';

/**
 * The local engine's posterior probability under which a word is uncertain, measured on spoken development
 * dialogues (bench/speech-dialogues.ts): under 0.4 most of its words are wrong (43 % right from 0.2 to 0.4), over
 * it most are right (53 % from 0.4 to 0.6, 80 % over 0.8).
 */
export const WORD_UNCERTAIN_BELOW = 0.4;
/**
 * A medicine name the local engine heard is kept only when it is nearly certain of it: at 0.9 the same dialogues
 * kept no medicine nobody said, and kept metformin heard at 0.92.
 */
export const MEDICINE_WORD_UNCERTAIN_BELOW = 0.9;
/**
 * A segment's mean token probability (exp of Whisper's avg_logprob) under which its words are uncertain: Whisper's
 * own threshold for a failed decoding (log-probability −1). A medicine name in it needs −0.3.
 */
export const SEGMENT_UNCERTAIN_BELOW = Math.exp(-1);
export const MEDICINE_SEGMENT_UNCERTAIN_BELOW = Math.exp(-0.3);

const folded = (word: string) =>
  word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');

export const isMedicineName = (word: string): boolean => {
  const w = folded(word);
  return MEDICINE_WORDS.has(w) || MEDICINE_ENDING.test(w);
};

/** The mark goes round the words; the sentence's own punctuation stays outside it ('[ramipril?].'). */
const markedPiece = (words: string) => {
  const [, core, end] = /^(.*?)([.,;:!?…]*)$/su.exec(words)!;
  return core ? `${markUncertain(core)}${end}` : words;
};

/** Each sentence of a segment marked on its own: a mark never holds a sentence's end, where a note cuts. */
const marked = (words: string) =>
  words
    .split(/(?<=[.!?…])\s+/u)
    .map(markedPiece)
    .join(' ');

/** A segment's words with the uncertain ones marked; a segment without a confidence is taken as it came. */
export function markedSegmentText(segment: TimedSegment): string {
  // An engine's own notes of what is not speech ('[BLANK_AUDIO]', '[MUSIC]') are no words, and a bracket inside a
  // mark would undo it.
  const text = segment.text
    .replace(/\[[^\]\n]*\]/g, ' ')
    .replace(/[[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const confidence = segment.confidence;
  if (confidence === undefined || !text) return text;
  const words = text.split(/\s+/);
  const single = words.length === 1;
  const ordinary = single ? WORD_UNCERTAIN_BELOW : SEGMENT_UNCERTAIN_BELOW;
  const medicine = single ? MEDICINE_WORD_UNCERTAIN_BELOW : MEDICINE_SEGMENT_UNCERTAIN_BELOW;
  if (confidence < ordinary) return marked(text);
  return joinUncertain(words.map((w) => (confidence < medicine && isMedicineName(w) ? marked(w) : w)).join(' '));
}

/** Segments' words in order, the uncertain ones marked (next marks joined). */
export const markedText = (segments: TimedSegment[]): string => joinUncertain(segments.map(markedSegmentText).filter(Boolean).join(' '));
