/** Text helpers shared by the scorer's modules; none of them comes from the product. */
import { porterStem } from './porter.js';

/** Lower case without accents: 'Avaliação' and 'avaliacao' are one heading. */
export const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Tokens as rouge-score makes them: lower case, runs of [a-z0-9], nothing else. */
export const rougeTokens = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** rouge-score stems only words of more than three letters. */
export const stemToken = (token: string): string => (token.length > 3 ? porterStem(token) : token);

/** Words for matching terms in any inflection: folded, [a-z0-9'] runs, stemmed ('fractures' = 'fracture'). */
export const stemmedWords = (text: string): string[] =>
  (fold(text).match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? []).map((w) => stemToken(w.replace(/'s$/, '').replace(/'/g, '')));

/** Plain words for counting and comparing sentences: folded, [a-z0-9'] runs. */
export const plainWords = (text: string): string[] => fold(text).match(/[a-z0-9]+(?:'[a-z]+)*/g) ?? [];

export const median = (values: number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const mean = (values: number[]): number => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN);
