/**
 * ROUGE-1, ROUGE-2 and ROUGE-L F1 as rouge-score computes them (rougeL: one longest common subsequence over the
 * whole text, newlines ignored), tokens from text.ts with or without Porter stemming. Scores are 0–100.
 */
import { rougeTokens, stemToken } from './text.js';

export type Rouge = { rouge1: number; rouge2: number; rougeL: number };

export const tokensForRouge = (text: string, stem = true): string[] => {
  const tokens = rougeTokens(text);
  return stem ? tokens.map(stemToken) : tokens;
};

const f1 = (overlap: number, candidate: number, reference: number): number => {
  if (overlap === 0 || candidate === 0 || reference === 0) return 0;
  const precision = overlap / candidate;
  const recall = overlap / reference;
  return (200 * precision * recall) / (precision + recall);
};

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join(' ');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

export function rougeN(candidate: string[], reference: string[], n: number): number {
  const c = ngramCounts(candidate, n);
  const r = ngramCounts(reference, n);
  let overlap = 0;
  for (const [gram, count] of c) overlap += Math.min(count, r.get(gram) ?? 0);
  return f1(overlap, Math.max(candidate.length - n + 1, 0), Math.max(reference.length - n + 1, 0));
}

/** Length of the longest common subsequence; two rows of integers, as notes run to thousands of tokens. */
export function lcsLength(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  // Tokens as small integers: comparing numbers in the inner loop is several times faster than strings.
  const ids = new Map<string, number>();
  const id = (t: string) => ids.get(t) ?? (ids.set(t, ids.size), ids.size - 1);
  const x = Int32Array.from(a, id);
  const y = Int32Array.from(b, id);
  let prev = new Int32Array(y.length + 1);
  let row = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const xi = x[i - 1]!;
    for (let j = 1; j <= y.length; j++) row[j] = xi === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    [prev, row] = [row, prev];
  }
  return prev[y.length]!;
}

export const rougeL = (candidate: string[], reference: string[]): number => f1(lcsLength(candidate, reference), candidate.length, reference.length);

export function rouge(candidateText: string, referenceText: string, stem = true): Rouge {
  const c = tokensForRouge(candidateText, stem);
  const r = tokensForRouge(referenceText, stem);
  return { rouge1: rougeN(c, r, 1), rouge2: rougeN(c, r, 2), rougeL: rougeL(c, r) };
}
