/**
 * Text as the clinical readers compare it: lower case, accents removed, so 'Diabético' and 'diabetico', 'años'
 * and 'anos' are one word. Folding keeps every other character in place, except where a letter carried several
 * marks; readers that map positions back check that the lengths agree.
 */
export const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A whole-word pattern for a list of phrases (already folded), for text folded the same way. */
export const wordsPattern = (list: readonly string[], flags = 'u') =>
  new RegExp(`(?<![\\p{L}\\d])(?:${list.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\d])`, flags);
