/** Lower case without accents, so 'Diabético' and 'diabetico', 'años' and 'anos' compare equal. */
export const normalise = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Sentences (or list lines) of a document, each kept as written for quoting. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.;!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 1);
}
