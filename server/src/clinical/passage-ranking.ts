/**
 * Which sentences of a record speak to a question, best first (Okapi BM25 over the record's own sentences). Words
 * compare folded and by stem ('diabetes' / 'diabetic', 'fumador' / 'fumadora'), and the concept lexicon's
 * phrases count as one term whatever the language ('type 2 diabetes' in a criterion finds 'DM tipo 2' in a
 * record). Each passage comes with the words of it that matched, as written, so a reader sees why it was chosen.
 */
import { conceptMentions, conceptOf } from './concepts.js';
import { fold } from './text.js';

/** Words that say nothing of what is asked, in the four languages (three letters and more; shorter words are skipped). */
const STOPWORDS = new Set(
  (
    'the and for not but was were are has had have his her she him who with without that this these those from than into onto within during after before ' +
    'prior previous current currently known history patient patients subject subjects participant participants must should able will been being other ' +
    'more less any all each per one two three years year months month weeks week days day older younger least most equal under over between above below ' +
    'which when where while also only such may can than then there their them they its out off who whom what how age aged study trial criteria ' +
    'como para pelo pela pelos pelas sobre entre antes depois durante doente doentes paciente pacientes utente utentes anos meses semanas dias ' +
    'maior menor igual menos mais que com sem dos das nos nas uma uns umas por ate foi sao tem idade ' +
    'der die das den dem des ein eine einer einem einen oder und mit ohne nach unter uber vor bei von zum zur ist sind war hat wurde jahre monate wochen tage alter ' +
    'los las del con sin una unos unas por desde hasta fue son tiene edad anos'
  ).split(/\s+/),
);

/** One term of a text: what compares (`key`) and how the text writes it (`surface`). */
type Term = { key: string; surface: string };

const stem = (word: string) => word.slice(0, Math.max(4, Math.min(word.length, 6)));

/** A text's terms: each concept phrase as one term, the other words by stem, numbers and stopwords left out. */
export function termsOf(text: string): Term[] {
  const folded = fold(text);
  // Folding keeps positions unless a letter carried several marks; the surface is then the folded word.
  const surfaceAt = (index: number, length: number) =>
    folded.length === text.length ? text.slice(index, index + length) : folded.slice(index, index + length);
  const terms: { index: number; term: Term }[] = [];
  // Characters a concept phrase already took (a long record has thousands: a mark per character, not a list).
  const covered = new Uint8Array(folded.length);
  const free = (from: number, length: number) => covered.subarray(from, from + length).every((c) => c === 0);
  for (const m of conceptMentions(folded)) {
    if (!free(m.index, m.length)) continue;
    covered.fill(1, m.index, m.index + m.length);
    const surface = surfaceAt(m.index, m.length);
    terms.push({ index: m.index, term: { key: m.token, surface } });
    // 'Type 2 diabetes' answers a question about diabetes too.
    const broader = conceptOf(m.token)?.within;
    if (broader) terms.push({ index: m.index, term: { key: broader, surface } });
  }
  for (const m of folded.matchAll(/[\p{L}][\p{L}\d]*/gu)) {
    const word = m[0];
    if (word.length < 3 || STOPWORDS.has(word) || !free(m.index, word.length)) continue;
    terms.push({ index: m.index, term: { key: stem(word), surface: surfaceAt(m.index, word.length) } });
  }
  return terms.sort((a, b) => a.index - b.index).map((t) => t.term);
}

export type RankedPassage = { text: string; score: number; matched: string[] };

const K1 = 1.2;
const B = 0.75;

/** A set of passages read once, to be asked many questions (a record's sentences, one criterion after another). */
export type PassageIndex = { docs: { text: string; terms: Term[] }[]; averageLength: number; holding: Map<string, number> };

export function indexPassages(passages: string[]): PassageIndex {
  const docs = passages.map((text) => ({ text, terms: termsOf(text) }));
  const averageLength = docs.reduce((n, d) => n + d.terms.length, 0) / Math.max(1, docs.length);
  const holding = new Map<string, number>();
  for (const d of docs) for (const key of new Set(d.terms.map((t) => t.key))) holding.set(key, (holding.get(key) ?? 0) + 1);
  return { docs, averageLength, holding };
}

/**
 * The passages that best answer the query, best first, at most `limit`; a passage sharing no term with the query
 * is never returned. Equal scores keep the record's order.
 */
export function rankPassages(query: string, passages: string[] | PassageIndex, limit = 3): RankedPassage[] {
  const wanted = new Set(termsOf(query).map((t) => t.key));
  if (wanted.size === 0) return [];
  const { docs, averageLength, holding } = Array.isArray(passages) ? indexPassages(passages) : passages;
  const idf = (key: string) => {
    const n = holding.get(key) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  const ranked: (RankedPassage & { order: number })[] = [];
  docs.forEach((d, order) => {
    const counts = new Map<string, number>();
    for (const t of d.terms) if (wanted.has(t.key)) counts.set(t.key, (counts.get(t.key) ?? 0) + 1);
    if (counts.size === 0) return;
    let score = 0;
    for (const [key, tf] of counts) score += (idf(key) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.terms.length) / Math.max(1, averageLength)));
    const matched = [...new Set(d.terms.filter((t) => wanted.has(t.key)).map((t) => t.surface))];
    ranked.push({ text: d.text, score, matched, order });
  });
  return ranked
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ text, score, matched }) => ({ text, score: Math.round(score * 100) / 100, matched }));
}

/**
 * How much of a question's vocabulary a text speaks to, from 0 to 1: the share of the query's distinct terms
 * found anywhere in it, each weighted by its length in letters (a drug or disease name says more than 'pain').
 */
export function termCoverage(query: string, text: string): number {
  const wanted = new Map(termsOf(query).map((t) => [t.key, t.key.startsWith('concept') ? 12 : t.surface.length]));
  if (wanted.size === 0) return 0;
  const present = new Set(termsOf(text).map((t) => t.key));
  let total = 0;
  let found = 0;
  for (const [key, weight] of wanted) {
    total += weight;
    if (present.has(key)) found += weight;
  }
  return found / total;
}
