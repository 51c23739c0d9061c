/** Medicine and diagnosis concepts found in a text, in any inflection (words compared by their Porter stems). */
import { DIAGNOSES, MEDICINES } from './lexicon.js';
import { stemmedWords } from './text.js';

export type ConceptKind = 'medicine' | 'diagnosis';
type Concept = { name: string; kind: ConceptKind; variants: string[] };

const toConcepts = (entries: string[], kind: ConceptKind): Concept[] =>
  entries.map((entry) => {
    const spellings = entry.split('|');
    return { name: spellings[0]!, kind, variants: spellings.map((s) => ` ${stemmedWords(s).join(' ')} `) };
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
