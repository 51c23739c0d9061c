/**
 * The ground truth for the hallucination guard (npm run eval:guard): what a model's note states that the
 * consultation never said, by the scorer's own rules (its lexicons, spoken-number reader and quantity matching),
 * and how a list of flagged terms compares with it. Nothing of the product's readers is used, so the guard is
 * measured from outside.
 */
import { saidQuantities } from './note-facts.js';
import { convertedFrom, quantitiesIn, sameQuantity, type Quantity } from './quantities.js';
import { numbersAsDigits } from './spoken-numbers.js';
import { conceptsIn, spelledConceptsIn, stemmedText } from './terms.js';
import { stemmedWords } from './text.js';

export type TermKind = 'number' | 'medicine' | 'diagnosis';
export const TERM_KINDS: readonly TermKind[] = ['number', 'medicine', 'diagnosis'];

/**
 * One thing the note invented: `label` to show, `spellings` as the note may write it, `value` for a number;
 * `negated` for a concept the note names only in sentences that deny it ('No murmurs, gallops, or rubs').
 */
export type InventedTerm = { kind: TermKind; label: string; spellings: string[]; value?: string; context?: string; negated?: boolean };

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
/** 'January 15', 'Jan. 15, 2020', 'March 2019': the number follows a month name. */
const MONTH_BEFORE = new RegExp(`\\b(?:${MONTHS})\\.?\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?$`, 'i');
/** '15 January', '15th of March'. */
const MONTH_AFTER = new RegExp(`^(?:st|nd|rd|th)?\\s*(?:of\\s+)?(?:${MONTHS})\\b`, 'i');
/** A line's own number ('1. Hypertension', '2) Knee pain'), after any bullet or heading marks. */
const LIST_OPENING = /^\s*(?:[-*•#>]\s*)*(?:\*\*)?$/;

/** Why a number of the note is no measurement it could have invented: a date, or a list's or section's number. */
function skipped(q: Quantity, read: string): 'date' | 'list number' | undefined {
  const before = read.slice(0, q.index);
  const after = read.slice(q.index + q.text.length);
  if (!q.unit && /^(?:19|20)\d\d$/.test(q.value)) return 'date';
  if (MONTH_BEFORE.test(before) || MONTH_AFTER.test(after)) return 'date';
  if (!q.unit && (before.endsWith('#') || (LIST_OPENING.test(before) && /^[.)](?:\s|$)/.test(after)))) return 'list number';
  return undefined;
}

const canonical = (n: string) => String(Number(n));

/**
 * Every number value the transcript says: as the scorer reads it (quantities, ratios and their parts), and each
 * number word or digit run on its own, since 'eight thirty' read whole is 830 but says eight and thirty too.
 */
export function saidValues(transcript: string): Set<string> {
  const values = new Set(saidQuantities(transcript).flatMap((s) => [s.value, ...s.value.split('/')]));
  for (const word of transcript.match(/\p{L}+|\d+(?:\.\d+)?/gu) ?? []) {
    const read = numbersAsDigits(word);
    if (/^\d+(?:\.\d+)?$/.test(read)) values.add(canonical(read));
  }
  return values;
}

/**
 * Numbers the note states that the transcript does not: a value with a unit is said when the transcript states
 * that value with a unit that fits or without one (the scorer's lenient matching: 'A1c 8%' rests on 'a1c is
 * eight'), or a value it converts to; a number without a unit is said when the transcript says that value at all,
 * in digits or words, alone or as part of a ratio; a score out of ten ('pain 9/10') when the transcript says its
 * first number ('it's like a nine'), as scores are said. Dates and list or section numbers are left out; an age
 * ('58-year-old') is a number like any other, said only when the transcript says that age. Each value and unit
 * once.
 */
export function inventedNumbers(note: string, transcript: string): InventedTerm[] {
  const said = saidQuantities(transcript);
  const values = saidValues(transcript);
  const outOfTen = (q: Quantity) => /^\d+(?:\.\d+)?\/10$/.test(q.value) && values.has(q.value.split('/')[0]!);
  const stated = (q: Quantity) => (q.unit ? said.some((s) => sameQuantity(q, s, true)) : values.has(q.value) || outOfTen(q));
  const out = new Map<string, InventedTerm>();
  for (const line of note.split('\n')) {
    const read = numbersAsDigits(line);
    const quantities = quantitiesIn(line);
    // A conversion may start from a said value or from a said value the line writes with its unit ('98.6 °F (37 °C)').
    const bases = [...said, ...quantities.filter((q) => q.unit && stated(q))];
    for (const q of quantities) {
      if (skipped(q, read) || stated(q) || (q.unit && bases.some((b) => convertedFrom(q, b)))) continue;
      const label = `${q.value}${q.unit ? ` ${q.unit}` : ''}`;
      if (!out.has(label))
        out.set(label, {
          kind: 'number',
          label,
          spellings: [q.text.trim()],
          value: q.value,
          context: read.slice(Math.max(0, q.index - 40), q.index + q.text.length + 20).trim(),
        });
    }
  }
  return [...out.values()];
}

const NEGATIONS = new Set(stemmedWords('no not denies denied without never nor negative absent'));

/** Whether every sentence of the note naming a spelling names it after a negation ('No signs of coronary artery disease'). */
function namedOnlyDenied(note: string, spellings: string[]): boolean {
  const mentions = note.split(/(?<=[.!?])\s+|\n/).flatMap((sentence) => {
    const words = stemmedWords(sentence);
    return spellings.flatMap((spelling) => {
      const target = stemmedWords(spelling);
      const at = words.findIndex((_, i) => target.every((t, k) => words[i + k] === t));
      return at < 0 ? [] : [words.slice(0, at).some((w) => NEGATIONS.has(w))];
    });
  });
  return mentions.length > 0 && mentions.every(Boolean);
}

/** Where a spelling stands in a text's stemmed words, as [first, past-last] word indices. */
function spansOf(words: string[], spelling: string): [number, number][] {
  const target = stemmedWords(spelling);
  if (!target.length) return [];
  return words.flatMap((_, i) => (target.every((t, k) => words[i + k] === t) ? [[i, i + target.length] as [number, number]] : []));
}

/**
 * The scorer's `invented` (medicines and diagnoses the note names and the transcript never does), with the note's
 * spellings. A concept the note names only inside another's name ('infection' in 'urinary tract infection',
 * 'arthritis' in 'rheumatoid arthritis') is that other one, not a second invention.
 */
export function inventedConcepts(note: string, transcript: string): InventedTerm[] {
  const said = new Set(conceptsIn(transcript).map((c) => c.name));
  const words = stemmedWords(note);
  const named = spelledConceptsIn(note).map((c) => ({ ...c, spans: c.spellings.flatMap((sp) => spansOf(words, sp)) }));
  const inside = (c: (typeof named)[number]) =>
    c.spans.length > 0 && c.spans.every(([a, b]) => named.some((o) => o.name !== c.name && o.spans.some(([x, y]) => x <= a && b <= y && y - x > b - a)));
  return named
    .filter((c) => !said.has(c.name) && !inside(c))
    .map((c) => ({
      kind: c.kind,
      label: c.name,
      spellings: [c.name, ...c.spellings.filter((s) => s !== c.name)],
      negated: namedOnlyDenied(note, c.spellings),
    }));
}

export const inventedTerms = (note: string, transcript: string): InventedTerm[] => [
  ...inventedNumbers(note, transcript),
  ...inventedConcepts(note, transcript),
];

/** A flag as the guard writes numbers: digits, with a decimal point or comma, or a ratio. */
const NUMBER_FLAG = /^\d+(?:[.,/]\d+)*$/;

/**
 * The values a number may be: the guard writes a comma as a decimal point ('38,5' is 38.5), so a flag '1.000'
 * may be the note's '1,000'.
 */
function readings(value: string): string[][] {
  const parts = value.split('/');
  const plain = parts.map((p) => canonical(p.replace(',', '.')));
  const thousands = parts.map((p) => canonical(/^\d{1,3}(?:[.,]\d{3})+$/.test(p) ? p.replace(/[.,]/g, '') : p.replace(',', '.')));
  return [plain, thousands];
}

/** Same number, leniently: the same value, or one is a part of the other's ratio ('3/6' and '6'). */
export function sameNumber(flag: string, value: string): boolean {
  return readings(flag).some((a) =>
    readings(value).some((b) => a.join('/') === b.join('/') || (a.length === 1 && b.includes(a[0]!)) || (b.length === 1 && a.includes(b[0]!))),
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const occurrencesIn = (flag: string, note: string) => [
  ...note.matchAll(
    new RegExp(`(?<![\\d.,])${escapeRegExp(flag)}(?![\\d]|[.,]\\d)|(?<=\\d[.,])${escapeRegExp(flag)}(?!\\d)|(?<!\\d)${escapeRegExp(flag)}(?=[.,]\\d)`, 'g'),
  ),
];

/**
 * The decimals a number flag is a piece of, when the note writes it only inside decimals: the guard may split
 * '0.5' into '0.' and '5'.
 */
function decimalsAround(flag: string, note: string): string[] | undefined {
  const found = occurrencesIn(flag, note).map((m) => {
    const from = note.slice(0, m.index).match(/\d+[.,]$/)?.[0] ?? '';
    const to = note.slice(m.index + flag.length).match(/^[.,]\d+/)?.[0] ?? '';
    return from || to ? `${from}${flag}${to}` : undefined;
  });
  return found.length && found.every((d) => d !== undefined) ? (found as string[]) : undefined;
}

/** Why the ground truth has no number for a flag, from where the note writes it. */
function whyUnjudged(flag: string, note: string): string {
  const m = occurrencesIn(flag, note)[0];
  if (!m) return 'not found in the note as written';
  const before = note.slice(Math.max(0, m.index - 12), m.index);
  const after = note.slice(m.index + flag.length, m.index + flag.length + 12);
  const shown = `"${(before + flag + after).replace(/\s+/g, ' ').trim()}"`;
  if (/:$/.test(before) || /^:\d/.test(after)) return `a time: ${shown}`;
  if (/[a-z]$/i.test(before) || /^[a-z]/i.test(after)) return `part of a word: ${shown}`;
  return `a date or list number, skipped: ${shown}`;
}

/** Same term, leniently: one's words (folded, stemmed) contain the other's, for any spelling of the term. */
export function sameWords(flag: string, term: InventedTerm): boolean {
  const f = stemmedText(flag);
  if (!f.trim()) return false;
  return term.spellings.some((s) => {
    const t = stemmedText(s);
    return t.trim() !== '' && (f.includes(t) || t.includes(f));
  });
}

export type FlagVerdict = 'caught' | 'false alarm' | 'unjudged';
export type JudgedFlag = { text: string; kind: TermKind; verdict: FlagVerdict; why?: string };
export type Comparison = { invented: (InventedTerm & { caught: boolean })[]; flags: JudgedFlag[] };

/**
 * The guard's flags against the ground truth. An invented term is caught when a flag names it (the same number,
 * or words one of which contains the other). A flag that names no invented term is a false alarm when the scorer
 * finds it said in the transcript (a number it reads there; a concept of its lexicon the transcript names; or the
 * flag's words, in a row; a piece of a decimal the transcript says); otherwise the ground truth cannot judge it (a
 * date, time or list number it skips, a piece of an invented decimal, a word outside its lexicon that nobody
 * said), and it is counted apart. `wordKind` tells a word flag's kind where the scorer's lexicon does not know it.
 */
export function compareFlags(
  flags: string[],
  { note, transcript, truth }: { note: string; transcript: string; truth: InventedTerm[] },
  wordKind: (flag: string) => 'medicine' | 'diagnosis',
): Comparison {
  const names = (flag: string, term: InventedTerm) =>
    term.kind === 'number' ? NUMBER_FLAG.test(flag) && sameNumber(flag, term.value!) : !NUMBER_FLAG.test(flag) && sameWords(flag, term);
  const values = [...saidValues(transcript)];
  const saidConcepts = new Set(conceptsIn(transcript).map((c) => c.name));
  const saidText = stemmedText(transcript);
  const judged = flags.map((text): JudgedFlag => {
    const matched = truth.filter((t) => names(text, t));
    if (NUMBER_FLAG.test(text)) {
      if (matched.length) return { text, kind: 'number', verdict: 'caught' };
      // A piece of a decimal is not the number the note states: it flags the decimal only if that was invented.
      const decimals = decimalsAround(text, note);
      if (decimals) {
        const invented = decimals.filter((d) => truth.some((t) => t.kind === 'number' && sameNumber(d, t.value!)));
        if (invented.length) return { text, kind: 'number', verdict: 'unjudged', why: `a piece of the invented decimal ${invented.join(', ')}, not its value` };
        return { text, kind: 'number', verdict: 'false alarm', why: `a piece of the decimal ${decimals.join(', ')}, which is said` };
      }
      if (values.some((v) => sameNumber(text, v))) return { text, kind: 'number', verdict: 'false alarm', why: 'said' };
      return { text, kind: 'number', verdict: 'unjudged', why: whyUnjudged(text, note) };
    }
    const concepts = conceptsIn(text);
    const kind = matched[0]?.kind ?? concepts[0]?.kind ?? wordKind(text);
    if (matched.length) return { text, kind, verdict: 'caught' };
    if (concepts.length && concepts.every((c) => saidConcepts.has(c.name)))
      return { text, kind, verdict: 'false alarm', why: `said (${concepts.map((c) => c.name).join(', ')})` };
    if (stemmedText(text).trim() && saidText.includes(stemmedText(text))) return { text, kind, verdict: 'false alarm', why: 'said word for word' };
    return { text, kind, verdict: 'unjudged', why: concepts.length ? 'partly said' : "outside the scorer's lexicon, not said" };
  });
  return { invented: truth.map((t) => ({ ...t, caught: flags.some((f) => names(f, t)) })), flags: judged };
}

export type KindCounts = { invented: number; caught: number; missed: number; flags: number; caughtFlags: number; falseAlarms: number; unjudged: number };

export function countsOf(c: Comparison, kind: TermKind): KindCounts {
  const inv = c.invented.filter((t) => t.kind === kind);
  const flags = c.flags.filter((f) => f.kind === kind);
  const caught = inv.filter((t) => t.caught).length;
  return {
    invented: inv.length,
    caught,
    missed: inv.length - caught,
    flags: flags.length,
    caughtFlags: flags.filter((f) => f.verdict === 'caught').length,
    falseAlarms: flags.filter((f) => f.verdict === 'false alarm').length,
    unjudged: flags.filter((f) => f.verdict === 'unjudged').length,
  };
}

export const addCounts = (a: KindCounts, b: KindCounts): KindCounts => ({
  invented: a.invented + b.invented,
  caught: a.caught + b.caught,
  missed: a.missed + b.missed,
  flags: a.flags + b.flags,
  caughtFlags: a.caughtFlags + b.caughtFlags,
  falseAlarms: a.falseAlarms + b.falseAlarms,
  unjudged: a.unjudged + b.unjudged,
});

export const NO_COUNTS: KindCounts = { invented: 0, caught: 0, missed: 0, flags: 0, caughtFlags: 0, falseAlarms: 0, unjudged: 0 };

/** Precision over the flags the ground truth can judge; recall over the invented terms. */
export const precision = (c: KindCounts): number => c.caughtFlags / (c.caughtFlags + c.falseAlarms);
export const recall = (c: KindCounts): number => c.caught / c.invented;
