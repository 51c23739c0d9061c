/** Word error rate: word-level edit distance between hypothesis and reference, over the reference length. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return { errors: prev[hyp.length]!, words: ref.length };
}

export const wordErrorRate = (reference: string, hypothesis: string) => {
  const { errors, words } = wordErrors(reference, hypothesis);
  return words === 0 ? 0 : errors / words;
};
