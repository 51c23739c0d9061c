/**
 * Where sentences end, in clinical text of the four languages, typed, dictated or written by a speech engine.
 * A full stop ends a sentence except inside a number ('37.9', '2.5 mg'), after an abbreviation ('Mrs. Wood',
 * 'Dr.', 'z. B.', 'p. ex.'), after an initial ('J. Silva') or in a time ('10.30'); '?' and '!' always end one, and
 * so does a line break. A sentence never loses a character: spans cover the text as written.
 */
import { stopIsDecimalPoint } from './numbers.js';
import { fold } from './text.js';

/** Words that end with a full stop without ending a sentence (folded, without the stop), four languages. */
const ABBREVIATIONS = new Set(
  (
    'dr dra drs sr sra srs prof mr mrs ms st no nr n vs etc approx ca cf fig ref resp incl max min mg ml dl kg cm mm mcg ' +
    'eg e g ie i z b d h u a o s p ex dto dta pag tel av hab jan fev feb mar abr apr mai jun jul ago aug set sep out okt oct nov dez dic dec ' +
    'eos bzw bzgl ggf evtl inkl lt std tgl vgl zn usw pct pac pat geb doente art insuf tab tabs cap caps bid tid qid qd prn'
  ).split(/\s+/),
);

/** A word that ends with a full stop without ending a sentence (folded), or a single letter ('z. n.'). */
export const isAbbreviation = (word: string) => ABBREVIATIONS.has(word) || /^[a-z]$/.test(word);

export type Span = { text: string; start: number; end: number };

/** Whether the full stop at `at` in `text` ends a sentence. */
function fullStopEnds(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 20), at);
  const after = text.slice(at + 1, at + 3);
  // 'twelve . five milligrams', '7. 5 %': a decimal point written as a stop (or a stop where one was said) is
  // never cut, or '5 mg' would stand alone as another sentence's dose.
  if (stopIsDecimalPoint(fold(text.slice(Math.max(0, at - 120), at)), fold(text.slice(at + 1, at + 40)))) return false;
  // Inside a number or a time: '37.9', '10.30', '1.73 m²'.
  if (/\d$/.test(before) && /^\d/.test(after)) return false;
  // Part of an ellipsis or a run of dots, which ends at its last dot.
  if (text[at + 1] === '.') return false;
  const word = before.match(/([\p{L}]+)$/u)?.[1];
  // A word written right against the stop ('Mrs.', 'z.'), not a stop set apart ('brian . how').
  // 'No. 5' numbers a thing; 'No.' alone is an answer.
  if (word && /^(?:no|nr|n)$/.test(fold(word))) return !/^\s*\d/.test(text.slice(at + 1, at + 4));
  if (word && isAbbreviation(fold(word))) {
    // 'etc.', 'min.' and units still end a sentence when a capital follows after a space; titles never do.
    const title = /^(?:dr|dra|drs|sr|sra|srs|prof|mr|mrs|ms|st)$/.test(fold(word));
    const single = word.length === 1;
    if (title || single) return false;
    if (!/^\s+\p{Lu}/u.test(text.slice(at + 1, at + 4))) return false;
  }
  return true;
}

/** The sentences of a text with their spans, trimmed; pieces without a letter or digit are left out. */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (/[\p{L}\d]/u.test(trimmed)) spans.push({ text: trimmed, start: start + lead, end: start + lead + trimmed.length });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      push(i);
      continue;
    }
    if (c !== '.' && c !== '?' && c !== '!') continue;
    if (c === '.' && !fullStopEnds(text, i)) continue;
    // The end takes the marks and closing quotes that follow ('?!', '."', '...').
    let end = i + 1;
    while (end < text.length && /[.?!"'”»)\]]/.test(text[end]!)) end++;
    push(end);
    i = end - 1;
  }
  push(text.length);
  return spans;
}
