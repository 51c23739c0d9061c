// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * The language a transcript is in, told by its commonest words: a clinician whose interface is in Portuguese may
 * record a consultation in English, and the transcript must be read as what it is. Undefined when the text is too
 * short or too mixed to tell; the caller then keeps the clinician's language.
 */
import type { Language } from '../../../contract/constants.js';
import { fold } from './text.js';

/** Frequent words of each language that are rare in the others (folded). */
const COMMON: Record<Language, string[]> = {
  en: ['the', 'and', 'you', 'is', 'it', 'that', 'to', 'of', 'have', 'your', 'with', 'what', 'for', 'this', 'was', 'are', 'any', 'how', 'okay', 'yeah', 'my', 'just', 'about', 'do', 'we', 'i', 'going', 'pain', 'take'],
  pt: ['o', 'a', 'os', 'as', 'que', 'nao', 'uma', 'um', 'com', 'de', 'do', 'da', 'para', 'esta', 'tem', 'muito', 'ja', 'isso', 'mas', 'dor', 'vou', 'sim', 'ou', 'como', 'se', 'tenho', 'ao', 'pois', 'entao', 'voce', 'senhor', 'senhora'],
  de: ['der', 'die', 'das', 'und', 'ich', 'sie', 'nicht', 'ist', 'es', 'mit', 'ein', 'eine', 'haben', 'auch', 'wie', 'was', 'seit', 'schmerzen', 'ja', 'nein', 'bei', 'wir', 'dann', 'noch', 'mal', 'gut', 'auf', 'zu'],
  es: ['el', 'la', 'los', 'las', 'que', 'no', 'y', 'en', 'un', 'una', 'con', 'de', 'del', 'por', 'para', 'es', 'esta', 'tiene', 'muy', 'pero', 'dolor', 'usted', 'si', 'le', 'lo', 'me', 'hace', 'bien', 'vale', 'tengo'],
};
const SETS = Object.fromEntries(Object.entries(COMMON).map(([l, words]) => [l, new Set(words)])) as Record<Language, Set<string>>;

/** The transcript's language when its words say so clearly (at least 8 telling words, and twice the next best). */
export function transcriptLanguage(text: string): Language | undefined {
  const words = fold(text.slice(0, 20_000)).match(/\p{L}+/gu) ?? [];
  const score: Record<Language, number> = { pt: 0, en: 0, de: 0, es: 0 };
  for (const w of words) for (const l of Object.keys(SETS) as Language[]) if (SETS[l].has(w)) score[l]++;
  const ranked = (Object.keys(score) as Language[]).sort((a, b) => score[b] - score[a]);
  const [best, next] = [ranked[0]!, ranked[1]!];
  if (score[best] < 8 || score[best] < 2 * score[next]) return undefined;
  return best;
}
