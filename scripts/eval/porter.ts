/**
 * Porter's stemmer, the original 1980 algorithm (the one rouge-score's stemming follows through NLTK): the scorer
 * compares 'fractures' with 'fracture' and 'medications' with 'medication' without a lexicon of forms. Written
 * here rather than taken from npm so that the scorer adds no dependency to the project.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonant(word: string, i: number): boolean {
  const c = word[i]!;
  if (VOWELS.has(c)) return false;
  // 'y' is a vowel after a consonant ('happy'), a consonant at the start or after a vowel ('yes', 'toy').
  if (c === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** Porter's m: how many vowel-consonant sequences the stem has ([C](VC)^m[V]). */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  while (i < stem.length && isConsonant(stem, i)) i++;
  while (i < stem.length) {
    while (i < stem.length && !isConsonant(stem, i)) i++;
    if (i >= stem.length) break;
    while (i < stem.length && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

const hasVowel = (stem: string) => [...stem].some((_, i) => !isConsonant(stem, i));
const endsDoubleConsonant = (w: string) => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);
/** Consonant-vowel-consonant at the end, the last not w, x or y ('hop', not 'snow'). */
const endsCvc = (w: string) =>
  w.length >= 3 && isConsonant(w, w.length - 3) && !isConsonant(w, w.length - 2) && isConsonant(w, w.length - 1) && !'wxy'.includes(w[w.length - 1]!);

/** The longest matching suffix of a rule list; when its condition fails, no shorter suffix is tried (Porter's rule). */
function replaceSuffix(word: string, rules: readonly (readonly [string, string])[], condition: (stem: string, suffix: string) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return condition(stem, suffix) ? stem + replacement : word;
  }
  return word;
}

const byLength = (rules: [string, string][]) => rules.sort((a, b) => b[0].length - a[0].length);

const STEP2 = byLength([
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
]);
const STEP3 = byLength([
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
]);
const STEP4 = byLength(
  ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map(
    (s): [string, string] => [s, ''],
  ),
);

function step1ab(word: string): string {
  if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (word.endsWith('ies')) word = word.slice(0, -2);
  else if (word.endsWith('ss')) {
    // unchanged
  } else if (word.endsWith('s')) word = word.slice(0, -1);

  if (word.endsWith('eed')) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  for (const suffix of ['ed', 'ing']) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (!hasVowel(stem)) return word;
    if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
    if (endsDoubleConsonant(stem) && !'lsz'.includes(stem[stem.length - 1]!)) return stem.slice(0, -1);
    if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
    return stem;
  }
  return word;
}

export function porterStem(input: string): string {
  let word = input.toLowerCase();
  if (word.length <= 2) return word;
  word = step1ab(word);
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = `${word.slice(0, -1)}i`;
  word = replaceSuffix(word, STEP2, (stem) => measure(stem) > 0);
  word = replaceSuffix(word, STEP3, (stem) => measure(stem) > 0);
  word = replaceSuffix(word, STEP4, (stem, suffix) => measure(stem) > 1 && (suffix !== 'ion' || stem.endsWith('s') || stem.endsWith('t')));
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) word = stem;
  }
  if (measure(word) > 1 && endsDoubleConsonant(word) && word.endsWith('l')) word = word.slice(0, -1);
  return word;
}
