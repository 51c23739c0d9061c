/** Medicine and diagnosis concepts found in a text, in any inflection (words compared by their Porter stems). */
import { DIAGNOSES, MEDICINES } from './lexicon.js';
import { stemmedWords } from './text.js';

export type ConceptKind = 'medicine' | 'diagnosis';
type Concept = { name: string; kind: ConceptKind; spellings: string[]; variants: string[] };

const toConcepts = (entries: string[], kind: ConceptKind): Concept[] =>
  entries.map((entry) => {
    const spellings = entry.split('|');
    return { name: spellings[0]!, kind, spellings, variants: spellings.map((s) => ` ${stemmedWords(s).join(' ')} `) };
  });

const CONCEPTS: Concept[] = [...toConcepts(MEDICINES, 'medicine'), ...toConcepts(DIAGNOSES, 'diagnosis')];

/** The words of a text ready for concept look-ups; made once per text, used for many concepts. */
export const stemmedText = (text: string): string => ` ${stemmedWords(text).join(' ')} `;

export type Mention = { name: string; kind: ConceptKind };

/** The concepts a text names (each once), in any of their spellings. */
export function conceptsIn(text: string): Mention[] {
  const words = stemmedText(text);
  return CONCEPTS.filter((c) => c.variants.some((v) => words.includes(v))).map(({ name, kind }) => ({ name, kind }));
}

/** A concept named in a text, with the lexicon's spellings of it that the text uses ('high blood pressure'). */
export type SpelledMention = Mention & { spellings: string[] };

/** As conceptsIn, with the spellings found: another tool's flag may quote any of them rather than the name. */
export function spelledConceptsIn(text: string): SpelledMention[] {
  const words = stemmedText(text);
  return CONCEPTS.flatMap(({ name, kind, spellings, variants }) => {
    const found = spellings.filter((_, i) => words.includes(variants[i]!));
    return found.length ? [{ name, kind, spellings: found }] : [];
  });
}
