/**
 * Linked evidence, for every engine: each sentence of a document is aligned with the sentences of the
 * transcript it rests on (shared content words, numbers, medicine names), or with the clinician's inputs; a
 * sentence with neither is unsupported. For a document a model wrote, the numbers and medicine names found
 * nowhere in the transcript or the inputs are flagged, to be reviewed before the text is copied or exported.
 * Stored with the version it was computed for.
 */
import { LANGUAGES, type Language } from '../../../../contract/constants.js';
import { withoutUncertainWords } from '../../../../contract/uncertain-words.js';
import { BLANK, COMPOSER_LABEL, formatDocumentDate } from '../../ai/offline-composer.js';
import { DIAGNOSES, fold, medicinesIn } from '../../ai/structurer/facts.js';
import { numbersAsNoted } from '../../clinical/units.js';
import { utterances } from '../../ai/structurer/structure.js';
import { transcriptLanguage } from '../../clinical/language.js';
import { sentenceSpans } from '../../clinical/sentences.js';
import { omittedFacts } from './omissions.js';
import type { DocumentEvidence, LinkedSentence, Span } from '../../../../contract/document-evidence.js';
// The screener's cross-language names of conditions: a document's diagnoses are checked against what was said.
import { conceptMentions, conceptOf } from '../../clinical/concepts.js';

/** Where each audio part's text sits in the transcript a version was written from. */
export type PartText = { id: string; start: number; end: number; durationMs: number | null };

/**
 * Finds each transcribed part's text in the transcript, in order. A transcript the clinician rewrote matches
 * no part, and its spans get no audio.
 */
export function partsInTranscript(
  transcript: string,
  parts: { id: string; order: number; transcript: string | null; durationMs: number | null }[],
): PartText[] {
  const found: PartText[] = [];
  let from = 0;
  for (const p of [...parts].sort((a, b) => a.order - b.order)) {
    if (!p.transcript) continue;
    // A speaker going on from the part before is written without their label again (transcription.ts).
    const text = transcript.includes(p.transcript, from) ? p.transcript : p.transcript.replace(/^[^:\n]{1,40}: /, '');
    const at = transcript.indexOf(text, from);
    if (at < 0) continue;
    found.push({ id: p.id, start: at, end: at + text.length, durationMs: p.durationMs });
    from = at + text.length;
  }
  return found;
}

function withAudio(span: Span, parts: PartText[]): Span {
  const part = parts.find((p) => span.start >= p.start && span.start < p.end);
  if (!part) return span;
  const share = (span.start - part.start) / Math.max(1, part.end - part.start);
  return { ...span, audio: { id: part.id, offset_ms: Math.round(share * (part.durationMs ?? 0)) } };
}

/** Words too common to show that two sentences say the same thing, in the four languages. */
const COMMON = new Set(
  (
    'that this with have from your were been they them their there what when which about would could should will more some than then into only also just very ' +
    'para como pelo pela mais isso esta este essa esse estou tenho teve sido muito quando onde porque qual seus suas dele dela ' +
    'eine einer einem einen nicht auch noch sind haben hatte wird werden wurde sich ihre ihren ihnen dass wenn oder aber schon ' +
    'pero esta este tiene tengo desde cuando donde porque cual muy para sobre entre todo toda'
  ).split(' '),
);

const contentWords = (s: string) => (fold(s).match(/[\p{L}]{4,}/gu) ?? []).filter((w) => !COMMON.has(w));
/** The numbers written in a text, decimal commas as points, so '38,5' and '38.5' are one number. */
// Not a piece of a word or a time ('L5', '3rd', 'x3', '8:30'): those are no values to check.
// A unit written against it is still a value ('875mg', '38,5ºC', '150/95mmHg'); an ordinal or a code is not.
const UNIT_AFTER = '(?:mg|mcg|µg|ug|g|kg|ml|l|mmhg|mmol|h|min|cm|mm|ui|iu|u|bpm|ºc|ºf|c|f|x)(?![\\p{L}\\d])';
const NUMBER = new RegExp(`(?<![\\p{L}\\d:.,/])\\d+(?:[.,/]\\d+)*(?!\\d|:\\d)(?!(?!${UNIT_AFTER})\\p{L})`, 'giu');
const numbersIn = (s: string) => (s.match(NUMBER) ?? []).map((n) => n.replace(',', '.'));
/** Inflections differ between what was said and what was written ('coughing' / 'cough', 'dores' / 'dor'). */
const stem = (w: string) => w.slice(0, Math.max(4, Math.min(w.length - 1, 6)));

/** The sentences of a document that say something: no headings, labels without a value, blanks or signatures. */
export function documentSentences(text: string, frame: string[]): string[] {
  const framed = frame.map(fold);
  return (
    text
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .map((line) =>
        line
          .replace(/^\s*(?:[-*]|\d+\.)\s+/, '')
          .replace(/^\*\*[^*]{1,60}:\*\*\s*/, '')
          .replace(/^[^:.!?]{2,30}:\s+(?=\S)/, '')
          .replace(/[*_`>]/g, '')
          .trim(),
      )
      // Cut where sentences end, never inside '99.9' or after 'Mrs.' (clinical/sentences.ts).
      .flatMap((line) => sentenceSpans(line).map((s) => s.text))
      .map((s) => s.trim())
      .filter((s) => contentWords(s).length + numbersIn(s).length > 0 && !framed.some((f) => f && (fold(s).includes(f) || f.includes(fold(s)))))
  );
}

type Source = { words: Set<string>; numbers: Set<string>; span: Span };
const spanOf = (transcript: string, start: number, end: number): Span => ({ start, end, quote: transcript.slice(start, end) });

function sourcesOf(transcript: string, language: Language): Source[] {
  const said = utterances(transcript, language);
  const read = (text: string, span: Span): Source => {
    const digits = numbersAsNoted(text, language);
    return { words: new Set(contentWords(`${text} ${digits}`).map(stem)), numbers: new Set(numbersIn(digits)), span };
  };
  // A question and its answer are read together too: 'Any allergies? Penicillin.'
  return [
    ...said.map((u) => read(u.text, spanOf(transcript, u.start, u.end))),
    ...said.slice(1).flatMap((u, i) => (said[i]!.question ? [read(`${said[i]!.text} ${u.text}`, spanOf(transcript, said[i]!.start, u.end))] : [])),
  ];
}

/** How much of a sentence a source says: the share of its words and numbers found there. */
function cover(words: string[], numbers: string[], source: Pick<Source, 'words' | 'numbers'>): number {
  const total = words.length + numbers.length;
  if (total === 0) return 0;
  return (words.filter((w) => source.words.has(w)).length + numbers.filter((n) => source.numbers.has(n)).length) / total;
}

type EvidenceInput = {
  transcript: string;
  data: Record<string, string | undefined>;
  clinician: string;
  language: Language;
  date: Date;
  parts?: PartText[];
  omissions?: boolean;
};

/** What a version is checked against: the clinician's inputs, their name and the document's date count as sources. */
function sourcesInput(input: EvidenceInput) {
  const dates = LANGUAGES.map((l) => formatDocumentDate(input.date, l));
  return {
    transcript: input.transcript,
    inputs: [...Object.values(input.data).filter((v): v is string => !!v), input.clinician, input.date.toISOString().slice(0, 10), ...dates],
    // The transcript is read in its own language, whatever the clinician's interface speaks.
    language: transcriptLanguage(input.transcript) ?? input.language,
    frame: [COMPOSER_LABEL[input.language], BLANK[input.language], input.clinician, ...dates],
  };
}

/**
 * The numbers, medicines and diagnoses of a text that its sources do not say. Used apart from the linking when a
 * version's flags must not count an earlier version of the same document as a source (modules/…/flags.ts).
 */
export function unsupportedTerms(text: string, input: EvidenceInput): string[] {
  const sources = sourcesInput(input);
  return termsNotSaid(documentSentences(text, sources.frame), sources);
}

/** The evidence of a version: the clinician's inputs, their name and the document's date count as sources. */
export function evidenceFor(text: string, input: EvidenceInput): DocumentEvidence {
  const linked = linkEvidence(text, sourcesInput(input));
  const reading = transcriptLanguage(input.transcript) ?? input.language;
  const withOmissions = input.omissions ? { ...linked, omitted: omittedFacts(text, input.transcript, reading) } : linked;
  const parts = input.parts;
  if (!parts?.length) return withOmissions;
  return { ...withOmissions, sentences: withOmissions.sentences.map((s) => ({ ...s, spans: s.spans.map((span) => withAudio(span, parts)) })) };
}

export function linkEvidence(text: string, input: { transcript: string; inputs: string[]; language: Language; frame: string[] }): DocumentEvidence {
  const sources = sourcesOf(input.transcript, input.language);
  const index = new Map<string, number[]>();
  sources.forEach((s, i) => {
    for (const key of [...s.words, ...[...s.numbers].map((n) => `#${n}`)]) {
      const list = index.get(key);
      if (list) list.push(i);
      else index.set(key, [i]);
    }
  });
  const inputs = input.inputs.filter((s) => s.trim()).map((s) => ({ words: new Set(contentWords(s).map(stem)), numbers: new Set(numbersIn(s)) }));
  const written = documentSentences(text, input.frame);
  const sentences = written.map((sentence): LinkedSentence => {
    const words = [...new Set(contentWords(sentence).map(stem))];
    const numbers = [...new Set(numbersIn(sentence))];
    // How many of its words and numbers each source says, counted through the index (not by scanning every source).
    const hits = new Map<number, number>();
    for (const key of [...words, ...numbers.map((n) => `#${n}`)]) for (const i of index.get(key) ?? []) hits.set(i, (hits.get(i) ?? 0) + 1);
    let best: Source | undefined;
    let most = 0;
    for (const [i, n] of hits) {
      const source = sources[i]!;
      const length = (s: Source) => s.span.end - s.span.start;
      // The source that says most of it; of equals, the first and shortest (a sentence before its question-and-answer pair).
      if (n > most || (best && n === most && (length(source) < length(best) || (length(source) === length(best) && source.span.start < best.span.start))))
        [best, most] = [source, n];
    }
    const total = words.length + numbers.length;
    if (best && total > 0 && most / total >= 0.5) return { text: sentence, spans: [best.span], source: 'transcript' };
    if (inputs.some((i) => cover(words, numbers, i) >= 0.5)) return { text: sentence, spans: [], source: 'inputs' };
    return { text: sentence, spans: [], source: 'none' };
  });
  return { sentences, flagged: termsNotSaid(written, input) };
}

/** The concepts a (folded) text names, with the broader ones they imply ('type 2 diabetes' says 'diabetes'). */
function conceptsSaid(folded: string): Set<string> {
  const said = new Set<string>();
  for (const { token } of conceptMentions(folded)) {
    for (let t: string | undefined = token; t && !said.has(t); t = conceptOf(t)?.within) said.add(t);
  }
  return said;
}

/** Diagnoses (and states such as pregnancy) the document names that the transcript and inputs do not. */
function diagnosesNotSaid(body: string, said: string): string[] {
  const folded = fold(body);
  const known = conceptsSaid(said);
  const fromConcepts = conceptMentions(folded)
    // Medicines are checked by name; a patient's sex is no diagnosis.
    .filter((m) => !known.has(m.token) && !conceptOf(m.token)?.medicine && m.token !== 'conceptmalesex')
    .map((m) => body.slice(m.index, m.index + m.length));
  const fromStems = DIAGNOSES.flatMap((pattern) => {
    const m = folded.match(pattern);
    return m && m.index !== undefined && !pattern.test(said) ? [body.slice(m.index, m.index + m[0].length)] : [];
  });
  return [...fromConcepts, ...fromStems];
}

/** Numbers, medicine names and diagnoses of the document that neither the transcript nor the inputs say. */
function termsNotSaid(sentences: string[], input: { transcript: string; inputs: string[]; language: Language }): string[] {
  // A word the speech engine was not sure of says nothing for sure: a model that wrote it as a fact is flagged,
  // and a document that kept it marked claims nothing by it.
  const body = withoutUncertainWords(sentences.join('\n'));
  const transcript = withoutUncertainWords(input.transcript);
  const said = fold(`${transcript}\n${numbersAsNoted(transcript, input.language)}\n${input.inputs.join('\n')}`);
  // '150/95' says 150 and 95 too.
  const saidNumbers = new Set(numbersIn(said).flatMap((n) => [n, ...n.split('/')]));
  const numbers = numbersIn(body).filter((n) => !saidNumbers.has(n) && !n.split('/').every((part) => saidNumbers.has(part)));
  const medicines = medicinesIn(body.split('\n'))
    .map((m) => m.value.split(' ')[0]!)
    .filter((name) => !said.includes(fold(name)));
  // Each term once, whatever its case ('Diabetes' opening a line, 'diabetes' in one).
  const seen = new Set<string>();
  return [...numbers, ...medicines, ...diagnosesNotSaid(body, said)].filter((t) => !seen.has(fold(t)) && !!seen.add(fold(t)));
}
