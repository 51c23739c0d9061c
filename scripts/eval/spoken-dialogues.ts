/**
 * The pure parts of the spoken-dialogue speech benchmark (bench/speech-dialogues.ts): dialogue text made
 * speakable (numbers in words, symbols said), the opening of a dialogue, silences found in PCM and the recording
 * cut into browser-like parts at them, reference words given their speaker and an estimated time, hypothesis
 * and reference aligned word by word, and medicine names and numbers found in a word sequence.
 */
import { MEDICINE_ENDING, MEDICINE_PHRASES, MEDICINE_WORDS } from '../../server/src/clinical/medicine-names.js';
import { normalizeWords } from '../../server/src/ai/word-error-rate.js';
import type { Turn } from './datasets.js';

const SMALL = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const TENS = 'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

/** An integer as an American clinician says it: 120 → 'one hundred twenty', 2024 → 'two thousand twenty four'. */
export function integerWords(n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a whole number: ${n}`);
  if (n < 20) return SMALL[n]!;
  if (n < 100) return TENS[Math.floor(n / 10) - 2]! + (n % 10 ? ` ${SMALL[n % 10]}` : '');
  if (n < 1000) return `${SMALL[Math.floor(n / 100)]} hundred` + (n % 100 ? ` ${integerWords(n % 100)}` : '');
  if (n < 1_000_000) return `${integerWords(Math.floor(n / 1000))} thousand` + (n % 1000 ? ` ${integerWords(n % 1000)}` : '');
  // Longer runs (phone numbers, record numbers) digit by digit.
  return [...String(n)].map((d) => SMALL[Number(d)]).join(' ');
}

/** A number as written (12, 98.6, 0.5) in words; digits after the point one by one. */
export function numberWords(written: string): string {
  const [whole, fraction] = written.replace(/,/g, '').split('.');
  const head = whole ? integerWords(Number(whole)) : 'zero';
  return fraction ? `${head} point ${[...fraction].map((d) => SMALL[Number(d)]).join(' ')}` : head;
}

/**
 * Dialogue text as it is spoken and as the reference is scored: numbers in words, '120/80' as 'one hundred
 * twenty over eighty', '%' as 'percent', other symbols as pauses. Sentence punctuation is kept for the speech
 * synthesiser's phrasing; `normalizeWords` takes it off for scoring.
 */
export function speakable(text: string): string {
  return text
    .replace(/\[[a-z_]+\]/gi, ' ')
    .replace(/(\d)\s*\/\s*(\d)/g, '$1 over $2')
    .replace(/(\d)\s*%/g, '$1 percent')
    .replace(/(\d)\s*-\s*(\d)/g, '$1 to $2')
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' plus ')
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/\d+(?:,\d{3})*(?:\.\d+)?|\.\d+/g, (n) => ` ${numberWords(n)} `)
    .replace(/[^\p{L}\p{N}'.,?!\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The dialogue's opening turns, as many as fit in `maxWords` spoken words (at least the first turn, cut). */
export function opening(turns: Turn[], maxWords: number): Turn[] {
  const out: Turn[] = [];
  let words = 0;
  for (const turn of turns) {
    const text = speakable(turn.text);
    const n = normalizeWords(text).length;
    if (!n) continue;
    if (words + n > maxWords) {
      // The last turn is cut at a word, only if little would remain otherwise.
      if (words < maxWords / 2)
        out.push({
          speaker: turn.speaker,
          text: text
            .split(' ')
            .slice(0, maxWords - words)
            .join(' '),
        });
      break;
    }
    out.push({ speaker: turn.speaker, text });
    words += n;
  }
  return out;
}

export type Span = { startMs: number; endMs: number };

/** Stretches of at least `minMs` where 10 ms frames stay below `threshold` (RMS of 16-bit samples). */
export function silences(samples: Int16Array, sampleRate: number, minMs = 150, threshold = 300): Span[] {
  const frame = Math.round(sampleRate / 100);
  const out: Span[] = [];
  let start = -1;
  const frames = Math.floor(samples.length / frame);
  for (let f = 0; f <= frames; f++) {
    let quiet = false;
    if (f < frames) {
      let sum = 0;
      for (let i = f * frame; i < (f + 1) * frame; i++) sum += samples[i]! * samples[i]!;
      quiet = Math.sqrt(sum / frame) < threshold;
    }
    if (quiet && start < 0) start = f;
    if (!quiet && start >= 0) {
      if ((f - start) * 10 >= minMs) out.push({ startMs: start * 10, endMs: f * 10 });
      start = -1;
    }
  }
  return out;
}

/**
 * Where a recording of `totalMs` is cut into parts of `minMs`–`maxMs`, like the browser's recorder that ends a
 * part at a pause: in each window the longest silence (the later one on a tie) is the cut, at its middle; a
 * window without one is cut at `maxMs`. Returns the parts' bounds.
 */
export function cutParts(totalMs: number, quiet: Span[], minMs = 5000, maxMs = 10_000): Span[] {
  const parts: Span[] = [];
  let start = 0;
  while (totalMs - start > maxMs) {
    const inWindow = quiet
      .map((s) => ({ ...s, mid: Math.round((s.startMs + s.endMs) / 2), len: s.endMs - s.startMs }))
      .filter((s) => s.mid >= start + minMs && s.mid <= start + maxMs);
    const best = inWindow.reduce<(typeof inWindow)[number] | undefined>((b, s) => (!b || s.len >= b.len ? s : b), undefined);
    const end = best ? best.mid : start + maxMs;
    parts.push({ startMs: start, endMs: end });
    start = end;
  }
  parts.push({ startMs: start, endMs: totalMs });
  return parts;
}

export type Speaker = Turn['speaker'];
export type RefWord = { word: string; speaker: Speaker; atMs: number };

/**
 * The reference words of turns spoken at the given times, each placed at its estimated middle: a turn's speech is
 * assumed spread evenly over its letters (espeak-ng speaks at a steady rate), which is close enough to decide the
 * part of a word when parts are cut at pauses.
 */
export function timedReference(turns: { speaker: Speaker; text: string; startMs: number; endMs: number }[]): RefWord[] {
  const out: RefWord[] = [];
  for (const turn of turns) {
    const words = normalizeWords(turn.text);
    const letters = words.reduce((n, w) => n + w.length + 1, 0);
    let seen = 0;
    for (const word of words) {
      const mid = seen + (word.length + 1) / 2;
      seen += word.length + 1;
      out.push({ word, speaker: turn.speaker, atMs: turn.startMs + ((turn.endMs - turn.startMs) * mid) / letters });
    }
  }
  return out;
}

export type Alignment = {
  /** Errors charged to each reference word: a substitution or deletion, plus insertions next to it. */
  refErrors: number[];
  /** Whether each hypothesis word matches the reference word it is aligned to. */
  hypCorrect: boolean[];
  errors: number;
};

/**
 * Word-level edit distance with its alignment. An inserted hypothesis word is charged to the reference word
 * before it (the first one when it comes before all), so that errors can be summed by speaker; the total is
 * the same edit distance as `wordErrors`.
 */
export function alignWords(ref: string[], hyp: string[]): Alignment {
  const cost: Uint32Array[] = Array.from({ length: ref.length + 1 }, (_, i) => {
    const row = new Uint32Array(hyp.length + 1);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= hyp.length; j++) cost[0]![j] = j;
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
  }
  const refErrors = new Array<number>(ref.length).fill(0);
  const hypCorrect = new Array<boolean>(hyp.length).fill(false);
  for (let i = ref.length, j = hyp.length; i > 0 || j > 0; ) {
    const same = i > 0 && j > 0 && ref[i - 1] === hyp[j - 1];
    if (i > 0 && j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (same ? 0 : 1)) {
      hypCorrect[j - 1] = same;
      if (!same) refErrors[i - 1]!++;
      i--;
      j--;
    } else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) {
      refErrors[i - 1]!++;
      i--;
    } else {
      // An insertion after reference word i (before all of them when i = 0).
      if (i > 0) refErrors[i - 1]!++;
      else if (ref.length) refErrors[0]!++;
      j--;
    }
  }
  return { refErrors, hypCorrect, errors: cost[ref.length]![hyp.length]! };
}

export type HeardWord = { text: string; confidence?: number };
export type Mention = { name: string; confidence: number };

const PHRASES = MEDICINE_PHRASES.map((p) => p.split(' '));
const isMedicine = (w: string) => MEDICINE_WORDS.has(w) || MEDICINE_ENDING.test(w);

/** Medicine names in a word sequence (single names, the endings names share, two-word names), each with the least confidence of its words. */
export function medicineMentions(words: HeardWord[]): Mention[] {
  const out: Mention[] = [];
  const folded = words.map((w) => ({ text: w.text.toLowerCase(), confidence: w.confidence ?? 1 }));
  for (let i = 0; i < folded.length; i++) {
    const phrase = PHRASES.find((p) => p.every((part, k) => folded[i + k]?.text === part));
    if (phrase) {
      out.push({ name: phrase.join(' '), confidence: Math.min(...folded.slice(i, i + phrase.length).map((w) => w.confidence)) });
      i += phrase.length - 1;
    } else if (isMedicine(folded[i]!.text)) out.push({ name: folded[i]!.text, confidence: folded[i]!.confidence });
  }
  return out;
}

const NUMBER_WORDS = new Set([...SMALL, ...TENS, 'hundred', 'thousand', 'million', 'half']);
/** A word that says (part of) a number: 'twenty', 'hundred', '5'. */
export const isNumberWord = (w: string) => NUMBER_WORDS.has(w) || /^\d+(?:\.\d+)?$/.test(w);

/** How many of the reference's items the hypothesis holds too, as multisets (each heard item matches once). */
export function multisetRecall(reference: string[], hypothesis: string[]): { found: number; total: number } {
  const left = new Map<string, number>();
  for (const h of hypothesis) left.set(h, (left.get(h) ?? 0) + 1);
  let found = 0;
  for (const r of reference) {
    const n = left.get(r) ?? 0;
    if (n > 0) {
      found++;
      left.set(r, n - 1);
    }
  }
  return { found, total: reference.length };
}

/** Calibration: for confidence buckets, how many words and how many right. */
export function calibration(words: { confidence: number; correct: boolean }[], edges = [0, 0.2, 0.4, 0.6, 0.8, 1]) {
  return edges.slice(0, -1).map((lo, k) => {
    const hi = edges[k + 1]!;
    const inBucket = words.filter((w) => w.confidence >= lo && (k === edges.length - 2 ? w.confidence <= hi : w.confidence < hi));
    return { lo, hi, words: inBucket.length, correct: inBucket.filter((w) => w.correct).length };
  });
}

/** At a threshold: the share of words marked uncertain, and of the words kept, the share right. */
export function gate(words: { confidence: number; correct: boolean }[], threshold: number) {
  const kept = words.filter((w) => w.confidence >= threshold);
  return {
    uncertain: words.length ? 1 - kept.length / words.length : 0,
    keptPrecision: kept.length ? kept.filter((w) => w.correct).length / kept.length : Number.NaN,
  };
}
