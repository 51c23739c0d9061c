/**
 * The scorer's own reader of numbers said in words ('one twenty four' = 124, 'ninety eight point six' = 98.6,
 * 'two and a half' = 2.5, 'a hundred and forty' = 140, 'one twenty four over eighty' = 124/80), in English and,
 * for the project's own dialogues, Portuguese, Spanish and German. Deliberately separate from the product's reader:
 * the scorer must not share the rules it measures.
 */
import { fold } from './text.js';

export type NumberLanguage = 'en' | 'pt' | 'es' | 'de';

type Table = {
  /** How the language writes a decimal: 98.6, 38,5. */
  decimalMark: '.' | ',';
  small: Record<string, number>;
  hundreds: Record<string, number>;
  multipliers: Record<string, 100 | 1000>;
  joins: string[];
  points: string[];
  /** Articles that are also 'one': a number only inside a run of number words ('a hundred', 'um e meio'). */
  weak: string[];
  /** 'and a half', 'e meio': replaced by a marker word before reading. */
  half: RegExp;
  halfText: string;
  /** '124 over 80', '160 por 100': blood pressures and scores written with a slash. */
  ratio: RegExp;
};

const range = (words: string, from = 0): Record<string, number> => Object.fromEntries(words.split(' ').map((w, i) => [w, from + i]));
const tens = (words: string): Record<string, number> => Object.fromEntries(words.split(' ').map((w, i) => [w, (i + 2) * 10]));
const hundreds = (words: string): Record<string, number> =>
  Object.fromEntries(words.split(' ').flatMap((group, i) => group.split('/').map((w) => [w, (i + 2) * 100] as [string, number])));

const HALF = 'zzhalfzz';

const TABLES: Record<NumberLanguage, Table> = {
  en: {
    decimalMark: '.',
    small: {
      ...range('zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'),
      ...tens('twenty thirty forty fifty sixty seventy eighty ninety'),
      a: 1,
    },
    hundreds: {},
    multipliers: { hundred: 100, thousand: 1000 },
    joins: ['and'],
    points: ['point'],
    weak: ['a'],
    half: /\s*\band a half\b/gi,
    halfText: 'and a half',
    ratio: /(\d+(?:\.\d+)?)\s+(?:over|out\s+of)\s+(\d+)\b/gi,
  },
  pt: {
    decimalMark: ',',
    small: {
      ...range('zero um dois tres quatro cinco seis sete oito nove dez onze doze treze catorze quinze dezasseis dezassete dezoito dezanove'),
      uma: 1,
      duas: 2,
      quatorze: 14,
      dezesseis: 16,
      dezessete: 17,
      dezenove: 19,
      ...tens('vinte trinta quarenta cinquenta sessenta setenta oitenta noventa'),
    },
    hundreds: {
      cem: 100,
      cento: 100,
      ...hundreds(
        'duzentos/duzentas trezentos/trezentas quatrocentos/quatrocentas quinhentos/quinhentas seiscentos/seiscentas setecentos/setecentas oitocentos/oitocentas novecentos/novecentas',
      ),
    },
    multipliers: { mil: 1000 },
    joins: ['e'],
    points: ['virgula', 'ponto'],
    weak: ['um', 'uma'],
    half: /\s*\be mei[oa]\b/gi,
    halfText: 'e meio',
    ratio: /(\d+(?:,\d+)?)\s+(?:por|sobre)\s+(\d+)\b/gi,
  },
  es: {
    decimalMark: ',',
    small: {
      ...range('cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciseis diecisiete dieciocho diecinueve'),
      un: 1,
      una: 1,
      ...range('veinte veintiuno veintidos veintitres veinticuatro veinticinco veintiseis veintisiete veintiocho veintinueve', 20),
      veintiun: 21,
      ...tens('veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa'),
    },
    hundreds: {
      cien: 100,
      ciento: 100,
      ...hundreds(
        'doscientos/doscientas trescientos/trescientas cuatrocientos/cuatrocientas quinientos/quinientas seiscientos/seiscientas setecientos/setecientas ochocientos/ochocientas novecientos/novecientas',
      ),
    },
    multipliers: { mil: 1000 },
    joins: ['y'],
    points: ['coma', 'punto'],
    weak: ['un', 'una'],
    half: /\s*\by medi[oa]\b/gi,
    halfText: 'y medio',
    ratio: /(\d+(?:,\d+)?)\s+(?:por|sobre|con)\s+(\d+)\b/gi,
  },
  de: {
    decimalMark: ',',
    small: {
      ...range('null eins zwei drei vier funf sechs sieben acht neun zehn elf zwolf'),
      ein: 1,
      eine: 1,
      sech: 6,
      sieb: 7,
      ...tens('zwanzig dreißig vierzig funfzig sechzig siebzig achtzig neunzig'),
      dreissig: 30,
    },
    hundreds: {},
    multipliers: { hundert: 100, tausend: 1000 },
    joins: ['und'],
    points: ['komma'],
    weak: ['ein', 'eine'],
    half: /einhalb/gi,
    halfText: 'einhalb',
    ratio: /(\d+(?:,\d+)?)\s+(?:zu|auf|über|uber)\s+(\d+)\b/gi,
  },
};

type Atom = { kind: 'small' | 'hundreds' | 'multiplier' | 'join' | 'point' | 'half' | 'oh'; value: number; word: string };

function atomOf(word: string, table: Table, language: NumberLanguage): Atom | undefined {
  const w = fold(word);
  if (w === HALF) return { kind: 'half', value: 0.5, word: table.halfText };
  if (w in table.small) return { kind: 'small', value: table.small[w]!, word };
  if (w in table.hundreds) return { kind: 'hundreds', value: table.hundreds[w]!, word };
  if (w in table.multipliers) return { kind: 'multiplier', value: table.multipliers[w]!, word };
  if (table.joins.includes(w)) return { kind: 'join', value: 0, word };
  if (table.points.includes(w)) return { kind: 'point', value: 0, word };
  if (language === 'en' && (w === 'oh' || w === 'o')) return { kind: 'oh', value: 0, word };
  return undefined;
}

/** German writes numbers as one word ('hundertfünfundvierzig'): its parts, when the whole word is made of them. */
function germanParts(word: string, table: Table): string[] | undefined {
  const morphemes = [...Object.keys(table.small), ...Object.keys(table.multipliers), 'und', HALF].sort((a, b) => b.length - a.length);
  const split = (rest: string): string[] | undefined => {
    if (rest === '') return [];
    for (const m of morphemes) {
      if (!rest.startsWith(m)) continue;
      const tail = split(rest.slice(m.length));
      if (tail) return [m, ...tail];
    }
    return undefined;
  };
  const parts = split(fold(word));
  // 'sech' and 'sieb' exist only inside teens and tens ('sechzehn', 'siebzehn').
  return parts && parts.length > 1 && !parts.some((p, i) => (p === 'sech' || p === 'sieb') && parts[i + 1] !== 'zehn') ? parts : undefined;
}

/** Reads one run of number words into numbers; words that turn out not to belong to a number stay as they were. */
function readRun(atoms: Atom[], language: NumberLanguage, mark: '.' | ','): string[] {
  const out: string[] = [];
  let total = 0;
  let current = 0;
  let started = false;
  let lastSmall = 0;
  let last: Atom | undefined;
  let fraction = '';
  let half = false;
  const start = (value: number) => {
    current = value;
    started = true;
  };
  const flush = () => {
    if (started) {
      const whole = total + current;
      out.push((half ? String(whole + 0.5) : fraction ? `${whole}.${fraction}` : String(whole)).replace('.', mark));
    }
    total = current = 0;
    started = false;
    fraction = '';
    half = false;
    last = undefined;
  };
  for (let k = 0; k < atoms.length; k++) {
    const a = atoms[k]!;
    const next = atoms[k + 1];
    switch (a.kind) {
      case 'small': {
        const v = a.value;
        if (!started) start(v);
        else if (last?.kind === 'small') {
          if (lastSmall >= 20 && lastSmall % 10 === 0 && current % 10 === 0 && v < 10) current += v;
          else if (language === 'de' && v === 10 && lastSmall < 10) current += 10;
          // English says three digits as two groups: 'one twenty four' (124), 'nineteen ninety' (1990).
          else if (language === 'en' && total === 0 && current === lastSmall && current > 0 && v >= 10) current = current * 100 + v;
          else {
            flush();
            start(v);
          }
        } else if (last?.kind === 'join' || last?.kind === 'oh' || ((last?.kind === 'hundreds' || last?.kind === 'multiplier') && current % 100 === 0))
          current += v;
        else {
          flush();
          start(v);
        }
        lastSmall = v;
        last = a;
        break;
      }
      case 'hundreds':
        if (!started) start(a.value);
        else if (current === 0) current = a.value;
        else {
          flush();
          start(a.value);
        }
        last = a;
        break;
      case 'multiplier':
        if (!started) start(a.value);
        else if (a.value === 1000) {
          total += (current || 1) * 1000;
          current = 0;
        } else if (current === 0) current = 100;
        else if (current < 100) current *= 100;
        else {
          flush();
          start(100);
        }
        last = a;
        break;
      case 'join': {
        const joinsNumber =
          started &&
          next !== undefined &&
          (((last?.kind === 'hundreds' || last?.kind === 'multiplier') && (next.kind === 'small' || next.kind === 'hundreds')) ||
            (language !== 'de' &&
              language !== 'en' &&
              last?.kind === 'small' &&
              lastSmall >= 20 &&
              lastSmall % 10 === 0 &&
              next.kind === 'small' &&
              next.value < 10) ||
            (language === 'de' && last?.kind === 'small' && lastSmall < 10 && next.kind === 'small' && next.value >= 20 && next.value % 10 === 0));
        if (joinsNumber) last = a;
        else {
          flush();
          out.push(a.word);
        }
        break;
      }
      case 'point':
        if (started && next?.kind === 'small') {
          // 'point five' digit by digit, or one number ('coma veinticinco').
          while (atoms[k + 1]?.kind === 'small') {
            const d = atoms[k + 1]!.value;
            if (d < 10) fraction += String(d);
            else if (fraction === '') {
              fraction = String(d);
              k++;
              break;
            } else break;
            k++;
          }
          flush();
        } else {
          flush();
          out.push(a.word);
        }
        break;
      case 'half':
        if (started) {
          half = true;
          flush();
        } else out.push(HALF);
        break;
      case 'oh':
        if (started && last?.kind === 'small' && current < 10 && next?.kind === 'small' && next.value < 10) {
          current *= 100;
          last = a;
        } else {
          flush();
          out.push(a.word);
        }
        break;
    }
  }
  flush();
  return out;
}

/** The text with numbers said in words written in digits, and ratios said aloud written with a slash. */
export function numbersAsDigits(text: string, language: NumberLanguage = 'en'): string {
  const table = TABLES[language];
  // 'anderthalb' is German for one and a half.
  const marked = (language === 'de' ? text.replace(/anderthalb/gi, 'ein einhalb') : text).replace(table.half, ` ${HALF}`);
  const tokens = marked.match(/\p{L}+|\d+(?:\.\d+)?|[^\p{L}\d]+/gu) ?? [];
  const isWord = (t: string | undefined) => t !== undefined && /^\p{L}/u.test(t);
  const joinable = (t: string | undefined) => t !== undefined && /^[ \t-]+$/.test(t);
  const atomsOf = (word: string): Atom[] | undefined => {
    const single = atomOf(word, table, language);
    if (single) return [single];
    if (language !== 'de') return undefined;
    return germanParts(word, table)?.map((p) => atomOf(p, table, language)!);
  };
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    const first = atomsOf(tokens[i]!);
    if (!isWord(tokens[i]) || !first || first[0]!.kind === 'join' || first[0]!.kind === 'point' || first[0]!.kind === 'oh') {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    // The longest run of number words and the words between them, separated by spaces or hyphens only.
    const atoms = [...first];
    const words = [tokens[i]!];
    let j = i + 1;
    while (joinable(tokens[j]) && isWord(tokens[j + 1])) {
      const more = atomsOf(tokens[j + 1]!);
      if (!more) break;
      atoms.push(...more);
      words.push(tokens[j + 1]!);
      j += 2;
    }
    // Joins and points at the end of a run belong to the text ('two and', 'point').
    while (atoms.length > 1 && ['join', 'point', 'oh'].includes(atoms[atoms.length - 1]!.kind) && words.length > 1) {
      atoms.pop();
      words.pop();
      j -= 2;
    }
    const onlyWeak = atoms.every((a) => a.kind === 'small' && table.weak.includes(fold(a.word)));
    // 'a' is 'one' only before 'hundred' or 'thousand'.
    const lonelyA = language === 'en' && atoms.some((a, k) => a.kind === 'small' && fold(a.word) === 'a' && atoms[k + 1]?.kind !== 'multiplier');
    if (onlyWeak || lonelyA) {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    out.push(readRun(atoms, language, table.decimalMark).join(' '));
    i = j;
  }
  return (
    out
      .join('')
      .replace(new RegExp(`(\\d+) ${HALF}`, 'g'), (_m, n: string) => String(Number(n) + 0.5).replace('.', table.decimalMark))
      // The half after the unit: 'sessenta e sete quilos e meio' (67,5 quilos), 'one week and a half'.
      .replace(
        new RegExp(`(\\d+) (\\p{L}+) ${HALF}`, 'gu'),
        (_m, n: string, unit: string) => `${String(Number(n) + 0.5).replace('.', table.decimalMark)} ${unit}`,
      )
      .replace(new RegExp(` ?${HALF}`, 'g'), ` ${table.halfText}`)
      .replace(table.ratio, '$1/$2')
  );
}
