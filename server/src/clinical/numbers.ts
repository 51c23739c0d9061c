// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * Numbers said in words, written in digits, in the four languages: 'one hundred and fifty', 'a hundred and forty',
 * 'ninety eight point six', 'two and a half', 'cento e vinte e quatro', 'hundertzwanzig', 'ciento veinticuatro'.
 *
 * The invariant: a run of number words becomes digits only when it reads as one number. 'five hundred five
 * hundred' is a repetition (500), never 1000; 'one two three' or 'eighty eighty thirty' read as no one number and
 * stay words. English speakers say a blood pressure or a weight as 'one twenty four' (124) or 'one ten' (110):
 * that reading is taken only where a measurement is being said ('… over seventy six', after 'pressure', before
 * 'pounds'), because elsewhere 'one twenty milligram tablet' means one tablet of twenty. A lone 'one', 'um',
 * 'ein', 'un' stays a word: it is more often an article.
 */
import type { Language } from '../../../contract/constants.js';
import { MEDICINE_ENDING, MEDICINE_WORDS } from './medicine-names.js';

type Table = {
  /** 0–19 (and Spanish 21–29, said as one word). */
  small: Record<string, number>;
  tens: Record<string, number>;
  /** Words worth a whole hundred (pt, es: 'cento', 'duzentos'); English says 'hundred' after its multiplier. */
  hundreds: Record<string, number>;
  hundredWord?: string;
  thousand: string;
  join: string;
  /** Whether tens and units are joined by `join` ('vinte e quatro') rather than said together ('twenty four'). */
  tensJoined: boolean;
  /** The decimal point said ('point', 'vírgula'). */
  point: string[];
  /** How a half follows a number: 'and a half', 'e meio', 'y medio'. */
  half: string[][];
  /** Words that alone are more often an article than a number. */
  articles: string[];
};

const TABLES: Record<Exclude<Language, 'de'>, Table> = {
  en: {
    small: { zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 },
    tens: { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 },
    hundreds: {},
    hundredWord: 'hundred',
    thousand: 'thousand',
    join: 'and',
    tensJoined: false,
    point: ['point'],
    half: [['and', 'a', 'half']],
    articles: ['one', 'oh'],
  },
  pt: {
    small: { zero: 0, um: 1, uma: 1, dois: 2, duas: 2, tres: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10, onze: 11, doze: 12, treze: 13, catorze: 14, quatorze: 14, quinze: 15, dezasseis: 16, dezesseis: 16, dezassete: 17, dezessete: 17, dezoito: 18, dezanove: 19, dezenove: 19 },
    tens: { vinte: 20, trinta: 30, quarenta: 40, cinquenta: 50, sessenta: 60, setenta: 70, oitenta: 80, noventa: 90 },
    hundreds: { cem: 100, cento: 100, duzentos: 200, duzentas: 200, trezentos: 300, trezentas: 300, quatrocentos: 400, quatrocentas: 400, quinhentos: 500, quinhentas: 500, seiscentos: 600, seiscentas: 600, setecentos: 700, setecentas: 700, oitocentos: 800, oitocentas: 800, novecentos: 900, novecentas: 900 },
    thousand: 'mil',
    join: 'e',
    tensJoined: true,
    point: ['virgula', 'ponto'],
    half: [['e', 'meio'], ['e', 'meia']],
    articles: ['um', 'uma'],
  },
  es: {
    small: { cero: 0, uno: 1, un: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19, veintiuno: 21, veintiun: 21, veintiuna: 21, veintidos: 22, veintitres: 23, veinticuatro: 24, veinticinco: 25, veintiseis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29 },
    tens: { veinte: 20, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 },
    hundreds: { cien: 100, ciento: 100, doscientos: 200, doscientas: 200, trescientos: 300, trescientas: 300, cuatrocientos: 400, cuatrocientas: 400, quinientos: 500, quinientas: 500, seiscientos: 600, seiscientas: 600, setecientos: 700, setecientas: 700, ochocientos: 800, ochocientas: 800, novecientos: 900, novecientas: 900 },
    thousand: 'mil',
    join: 'y',
    tensJoined: true,
    point: ['coma', 'punto'],
    half: [['y', 'medio'], ['y', 'media']],
    articles: ['un', 'una', 'uno'],
  },
};

const DE_SMALL: Record<string, number> = { null: 0, ein: 1, eins: 1, eine: 1, zwei: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19 };
const DE_TENS: Record<string, number> = { zwanzig: 20, dreissig: 30, vierzig: 40, funfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 };
const DE_ARTICLES = ['ein', 'eine', 'eins', 'einen', 'einer', 'einem'];

/** One German number word, compounds included ('hundertfünfundneunzig', 'zweitausend'); undefined if not one. */
export function germanNumber(word: string): number | undefined {
  const w = foldWord(word).replace(/ß/g, 'ss');
  const below100 = (s: string): number | undefined => {
    if (s === '') return 0;
    if (s in DE_SMALL) return DE_SMALL[s];
    if (s in DE_TENS) return DE_TENS[s];
    const m = s.match(/^(ein|zwei|drei|vier|funf|sechs|sieben|acht|neun)und(\p{L}+)$/u);
    if (m && m[2]! in DE_TENS) return DE_SMALL[m[1]!]! + DE_TENS[m[2]!]!;
    return undefined;
  };
  const below1000 = (s: string): number | undefined => {
    const m = s.match(/^(?:(ein|zwei|drei|vier|funf|sechs|sieben|acht|neun)?hundert)?(\p{L}*)$/u);
    if (!m) return undefined;
    const hundreds = s.includes('hundert') ? (m[1] ? DE_SMALL[m[1]]! : 1) * 100 : 0;
    const rest = below100(m[2]!);
    return rest === undefined ? undefined : hundreds + rest;
  };
  const t = w.split('tausend');
  if (t.length > 2) return undefined;
  if (t.length === 2) {
    const thousands = t[0] === '' ? 1 : below1000(t[0]!);
    const rest = below1000(t[1]!);
    return thousands === undefined || rest === undefined ? undefined : thousands * 1000 + rest;
  }
  return w === '' ? undefined : below1000(w);
}

/** German halves said as one word ('zweieinhalb', 'anderthalb'). */
function germanHalf(word: string): number | undefined {
  const w = foldWord(word);
  if (w === 'anderthalb') return 1.5;
  const m = w.match(/^(\p{L}+?)einhalb$/u);
  const whole = m ? germanNumber(m[1]!) : undefined;
  return whole === undefined ? undefined : whole + 0.5;
}

const foldWord = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A word of the text with where it lies, and the punctuation that closes it ('seventy six.' → 'six', '.'). */
type Word = { text: string; start: number; end: number; trailing: string };

function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    const raw = m[0];
    // Hyphenated number words are separate words to the reader ('twenty-four'), joined again on output.
    const core = raw.match(/^(.*?)([.,;:!?)"'»”]*)$/su)!;
    const parts = core[1]!.split(/(?<=\p{L})-(?=\p{L})/u);
    let at = m.index!;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      out.push({ text: part, start: at, end: at + part.length + (last ? core[2]!.length : 0), trailing: last ? core[2]! : '' });
      at += part.length + 1;
    });
  }
  return out;
}

/** A number read from words: its value, the words it spans, and the shape it was said in. */
type Reading = { value: number; from: number; to: number; words: number; decimal?: boolean };

/** A reader of one language's number words over a list of words. */
class NumberReader {
  constructor(
    private readonly words: Word[],
    private readonly table: Table,
  ) {}

  private w(i: number): string | undefined {
    const word = this.words[i];
    return word === undefined ? undefined : foldWord(word.text);
  }
  /** A word closed by punctuation ends any number it is part of. */
  private closes(i: number): boolean {
    return !!this.words[i]?.trailing;
  }
  private small(i: number) {
    const w = this.w(i);
    return w !== undefined && w in this.table.small ? this.table.small[w]! : undefined;
  }

  /** 0–99 from position i: 'twenty four', 'vinte e quatro', 'veinticuatro', 'seventeen'. */
  private below100(i: number): Reading | undefined {
    const w = this.w(i);
    if (w === undefined) return undefined;
    if (w in this.table.tens) {
      const tens = this.table.tens[w]!;
      if (!this.closes(i)) {
        const direct = this.small(i + 1);
        if (!this.table.tensJoined && direct !== undefined && direct >= 1 && direct <= 9) return { value: tens + direct, from: i, to: i + 1, words: 2 };
        if (this.table.tensJoined && this.w(i + 1) === this.table.join && !this.closes(i + 1)) {
          const joined = this.small(i + 2);
          if (joined !== undefined && joined >= 1 && joined <= 9) return { value: tens + joined, from: i, to: i + 2, words: 3 };
        }
      }
      return { value: tens, from: i, to: i, words: 1 };
    }
    const s = this.small(i);
    return s === undefined ? undefined : { value: s, from: i, to: i, words: 1 };
  }

  /** 0–999 from position i. */
  private below1000(i: number): Reading | undefined {
    const w = this.w(i);
    if (w === undefined) return undefined;
    let hundreds: number | undefined;
    let next = i + 1;
    if (w in this.table.hundreds) hundreds = this.table.hundreds[w]!;
    else if (this.table.hundredWord && !this.closes(i) && this.w(i + 1) === this.table.hundredWord) {
      const multiplier = w === 'a' || w === 'an' ? 1 : this.small(i);
      if (multiplier !== undefined && multiplier >= 1 && multiplier <= 19) {
        hundreds = multiplier * 100;
        next = i + 2;
      }
    } else if (this.table.hundredWord) {
      // 'fifteen hundred', 'twenty three hundred': hundreds counted past nine.
      const count = this.below100(i);
      if (count && count.value >= 10 && !this.closes(count.to) && this.w(count.to + 1) === this.table.hundredWord) {
        hundreds = count.value * 100;
        next = count.to + 2;
      }
    }
    if (hundreds === undefined) return this.below100(i);
    if (this.closes(next - 1)) return { value: hundreds, from: i, to: next - 1, words: next - i };
    // 'one hundred and fifty', 'cento e vinte', 'ciento veinte'.
    const joined = this.w(next) === this.table.join && !this.closes(next) ? this.below100(next + 1) : undefined;
    const direct = this.below100(next);
    // 'five hundred five hundred' is said twice, not 505 and a stray 'hundred'.
    const multiplies = (r: Reading) => {
      const next = this.w(r.to + 1);
      return next !== undefined && (next === this.table.hundredWord || next === this.table.thousand) && !this.closes(r.to);
    };
    if (joined && joined.value > 0 && !multiplies(joined)) return { value: hundreds + joined.value, from: i, to: joined.to, words: joined.to - i + 1 };
    if (direct && direct.value > 0 && !multiplies(direct)) return { value: hundreds + direct.value, from: i, to: direct.to, words: direct.to - i + 1 };
    return { value: hundreds, from: i, to: next - 1, words: next - i };
  }

  /** One whole number from position i, with its thousands, a decimal part and a half said after it. */
  read(i: number): Reading | undefined {
    let r = this.w(i) === this.table.thousand ? { value: 1, from: i, to: i - 1, words: 0 } : this.below1000(i);
    if (!r) return undefined;
    if (!this.closes(r.to) && this.w(r.to + 1) === this.table.thousand) {
      const thousands = r.value === 0 ? 1 : r.value;
      let value = thousands * 1000;
      let to = r.to + 1;
      if (!this.closes(to)) {
        const joinAt = this.w(to + 1) === this.table.join && !this.closes(to + 1) ? to + 2 : to + 1;
        const rest = this.below1000(joinAt);
        if (rest && rest.value > 0) {
          value += rest.value;
          to = rest.to;
        }
      }
      r = { value, from: i, to, words: to - i + 1 };
    }
    return this.withFraction(r);
  }

  /** 'ninety eight point six', 'two and a half'. */
  private withFraction(r: Reading): Reading {
    if (this.closes(r.to)) return r;
    if (this.table.point.includes(this.w(r.to + 1) ?? '')) {
      const digits: number[] = [];
      let j = r.to + 2;
      while (this.small(j) !== undefined && this.small(j)! <= 9) {
        digits.push(this.small(j)!);
        if (this.closes(j)) {
          j++;
          break;
        }
        j++;
      }
      if (digits.length) return { value: Number(`${r.value}.${digits.join('')}`), from: r.from, to: j - 1, words: j - r.from, decimal: true };
    }
    for (const half of this.table.half) {
      if (half.every((h, k) => this.w(r.to + 1 + k) === h && (k === half.length - 1 || !this.closes(r.to + 1 + k)))) {
        const to = r.to + half.length;
        return { value: r.value + 0.5, from: r.from, to, words: to - r.from + 1, decimal: true };
      }
    }
    return r;
  }
}

/** Words before a number that say a measurement follows, where 'one twenty' reads as 120. */
const MEASUREMENT_BEFORE = /^(?:pressure|pressures|bp|pulse|rate|sugar|sugars|glucose|weight|weigh|weighs|weighed|weighing|cholesterol|ldl|hdl|triglycerides|platelets|systolic|diastolic|reading|readings|numbers)$/;
/** Words after a number that make it a dose or a measure of something ('milligrams', 'tablets', 'pounds'). */
const DOSE_OR_UNIT = /^(?:mg|milligrams?|miligramas?|miligramos?|milligramm|mcg|micrograms?|grams?|gramas?|gramos?|ml|units?|tablets?|pills?|capsules?|comprimidos?|tabletten?|pastillas?|pounds?|lbs?|kilos?|kg|percent|por|prozent)$/;
/** Words after a number that say it is a measurement ('… over seventy', '… pounds'). */
const MEASUREMENT_AFTER = /^(?:over|pounds|lbs|lb|mmhg)$/;

/** The numbers said in a run of words: each complete number in turn, as long as the words read as numbers. */
function readRun(reader: NumberReader, words: Word[], start: number): Reading[] {
  const run: Reading[] = [];
  let i = start;
  while (i < words.length) {
    const r = reader.read(i);
    if (!r) break;
    run.push(r);
    i = r.to + 1;
    if (words[r.to]!.trailing) break;
  }
  return run;
}

/** What a run of numbers says as one number, or undefined when it says none unambiguously. */
function oneNumber(run: Reading[], words: Word[], table: Table | undefined, language: Language): number | undefined {
  const first = run[0]!;
  if (run.length === 1) {
    if (first.words === 1 && !first.decimal && (table ? table.articles : DE_ARTICLES).includes(foldWord(words[first.from]!.text))) return undefined;
    return first.value;
  }
  // The same number said again before its unit is said once ('five hundred five hundred milligrams'); elsewhere
  // it may be two ('twenty twenty vision', 'in twenty twenty') and stays words.
  const last = run[run.length - 1]!;
  const unitAfter = !words[last.to]!.trailing && DOSE_OR_UNIT.test(foldWord(words[last.to + 1]?.text ?? ''));
  if (run.every((r) => r.value === first.value)) return unitAfter ? first.value : undefined;
  if (run.length !== 2) return undefined;
  const second = run[1]!;
  // German written apart ('hundert zwanzig'): hundreds then the rest.
  if (language === 'de' && first.value % 100 === 0 && first.value < 1000 && second.value < 100 && !first.decimal) return first.value + second.value;
  if (language !== 'en' || first.words !== 1 || first.value < 1 || first.value > 9 || second.value < 10 || second.value > 99 || second.decimal || second.words > 2) return undefined;
  // 'one twenty four': a measurement's colloquial reading, only where a measurement is being said: before 'over'
  // or 'pounds', or within three words after its name in the same clause, and never before a dose.
  const after = words[second.to + 1] && !words[second.to]!.trailing ? foldWord(words[second.to + 1]!.text) : '';
  if (DOSE_OR_UNIT.test(after) && !MEASUREMENT_AFTER.test(after)) return undefined;
  const before: string[] = [];
  for (let k = first.from - 1; k >= Math.max(0, first.from - 3); k--) {
    if (words[k]!.trailing) break;
    before.push(foldWord(words[k]!.text).replace(/'s$/, ''));
  }
  if (MEASUREMENT_AFTER.test(after) || before.some((w) => MEASUREMENT_BEFORE.test(w))) return first.value * 100 + second.value;
  return undefined;
}

/** A number as a note writes it: the language's decimal mark. */
export const formatNumber = (value: number, language: Language) => (language === 'en' ? String(value) : String(value).replace('.', ','));

/**
 * The text with every number said in words that reads as one number written in digits; everything else as it was
 * said. Digits already written are left alone.
 */
export function wordsToDigits(text: string, language: Language): string {
  const words = wordsOf(text);
  const table = language === 'de' ? undefined : TABLES[language];
  let out = '';
  let at = 0;
  const write = (from: number, to: number, value: number) => {
    out += text.slice(at, words[from]!.start) + formatNumber(value, language) + words[to]!.trailing;
    at = words[to]!.end;
  };
  if (!table) {
    for (let i = 0; i < words.length; i++) {
      const half = germanHalf(words[i]!.text);
      if (half !== undefined) {
        write(i, i, half);
        continue;
      }
      const run: Reading[] = [];
      let j = i;
      while (j < words.length) {
        const value = germanNumber(words[j]!.text);
        if (value === undefined) break;
        run.push({ value, from: j, to: j, words: 1 });
        if (words[j]!.trailing) break;
        j++;
      }
      if (!run.length) continue;
      const withDecimal = germanDecimal(run, words);
      const value = withDecimal?.value ?? oneNumber(run, words, undefined, language);
      const to = withDecimal?.to ?? run[run.length - 1]!.to;
      if (value !== undefined) write(i, to, value);
      i = to;
    }
  } else {
    const reader = new NumberReader(words, table);
    for (let i = 0; i < words.length; i++) {
      const run = readRun(reader, words, i);
      if (!run.length) continue;
      const value = oneNumber(run, words, table, language);
      const to = run[run.length - 1]!.to;
      if (value !== undefined) write(i, to, value);
      i = to;
    }
  }
  return out + text.slice(at);
}

/** 'neun Komma acht': a German number, 'Komma', and its digits. */
function germanDecimal(run: Reading[], words: Word[]): { value: number; to: number } | undefined {
  if (run.length !== 1) return undefined;
  const r = run[0]!;
  if (words[r.to]!.trailing || foldWord(words[r.to + 1]?.text ?? '') !== 'komma') return undefined;
  const digits: number[] = [];
  let j = r.to + 2;
  while (j < words.length) {
    const d = germanNumber(words[j]!.text);
    if (d === undefined || d > 9) break;
    digits.push(d);
    if (words[j]!.trailing) break;
    j++;
  }
  return digits.length ? { value: Number(`${r.value}.${digits.join('')}`), to: r.to + 1 + digits.length } : undefined;
}

/** Number words up to nine, in the four languages (folded). */
const DIGIT_WORDS = 'zero|oh|one|two|three|four|five|six|seven|eight|nine|um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|uno|una|dos|cuatro|siete|ocho|nueve|null|eins|zwei|drei|vier|funf|sechs|sieben|acht|neun';
const NUMBER_BEFORE_STOP = new RegExp(`(?:\\d|(?<![\\p{L}])(?:${DIGIT_WORDS}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred))\\s*$`, 'u');
/** One digit after the stop, then a unit or the clause's end: no new sentence starts that way. */
const DIGIT_THEN_END = new RegExp(
  `^\\s*(?:\\d|${DIGIT_WORDS})(?:\\s*(?:[,;!?]|\\.(?!\\d)|$)|\\s*(?:mg|milligrams?|miligramas?|miligramos?|milligramm|mcg|micrograms?|grams?|g|ml|%|percent|per cent|por cento|por ciento|prozent|degrees?|cm|centimet(?:er|re)s?|mm|millimet(?:er|re)s?|kg|kilos?|pounds?|lbs?|units?|mmol)(?![\\p{L}]))`,
  'u',
);
/** After a measurement's name, the digit followed by what goes on the clause ('… . two your pulse is'), not a noun it counts ('4. 5 people'). */
const DIGIT_THEN_CLAUSE = new RegExp(`^\\s*(?:\\d|${DIGIT_WORDS})\\s*(?:$|[,;.!?]|(?:right now|and|so|your|you|it|its|it's|which|that|is|was|today|now|but|the|on|in|at|with|we|i|he|she|they|his|her|my|for|e|und|y|o|a)(?![\\p{L}]))`, 'u');
const ONE_DIGIT_AFTER = new RegExp(`^\\s*(?:\\d|${DIGIT_WORDS})(?![\\p{L}\\d])`, 'u');
/** A measurement's name: what follows it is its value, and a stop inside that value its decimal point. */
const VALUE_NAME =
  /(?<![\p{L}])(?:temperature|temp|fever|febre|fieber|fiebre|temperatura|temperatur|a1c|hba1c|hemoglobin|haemoglobin|hemoglobina|creatinine|creatinina|kreatinin|potassium|potasio|potassio|kalium|sodium|inr|tsh|psa|ferritin|bmi|imc|ejection fraction|measuring|measures|measured)(?![\p{L}])/gu;
/**
 * A dose said before its medicine's name: 'of' after the digit ('2. 5 of norvasc'), or a stop set apart on both
 * sides as a spoken point is written ('two . five norvasc'). 'Three. One aspirin, one metformin' counts tablets.
 */
const DIGIT_OF_NAME = new RegExp(`^\\s*(?:\\d|${DIGIT_WORDS})\\s+of\\s+(\\p{L}+)`, 'u');
const DIGIT_THEN_NAME = new RegExp(`^\\s+(?:\\d|${DIGIT_WORDS})\\s+(\\p{L}+)`, 'u');
function digitThenMedicine(before: string, after: string): boolean {
  const name = DIGIT_OF_NAME.exec(after)?.[1] ?? (/\s$/.test(before) ? DIGIT_THEN_NAME.exec(after)?.[1] : undefined);
  return name !== undefined && (MEDICINE_WORDS.has(name) || MEDICINE_ENDING.test(name));
}

/** Numbers said between a measurement's name and a value ('um' and 'oh' are more often hesitations). */
const NUMBER_WORD_OR_DIGITS =
  '(?:\\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|uno|dos|cuatro|siete|ocho|nueve|zwei|drei|vier|funf|sechs|sieben|acht|neun)';
const NUMBER_IN = new RegExp(`(?<![\\p{L}\\d])${NUMBER_WORD_OR_DIGITS}(?![\\p{L}\\d])`, 'u');
const NUMBER_AT_END = new RegExp(`(?:(?<![\\p{L}\\d])${NUMBER_WORD_OR_DIGITS}[\\s-]*)+$`, 'u');
/**
 * The measurement named last before this number, in the same sentence and at most 90 characters back, with no
 * other number said between them ('a1c last time … it was you know 7', not 'temperature … for 3 days … at 9').
 */
function valueNamedBefore(before: string): boolean {
  const last = [...before.matchAll(VALUE_NAME)].at(-1);
  if (!last) return false;
  const between = before.slice(last.index + last[0].length);
  return between.length <= 90 && !/[.?!]/.test(between) && !NUMBER_IN.test(between.replace(NUMBER_AT_END, ''));
}

/**
 * Whether a stop between a number and one digit is a decimal point ('ninety eight . two', '7. 3 %'): some
 * transcripts write the point said that way. It is where a unit or the clause's end follows the digit, or where a
 * measurement was named just before; elsewhere a new sentence may start ('I was twelve. Two years later').
 * `before` and `after` are folded text on either side of the stop.
 */
export function stopIsDecimalPoint(before: string, after: string): boolean {
  if (!NUMBER_BEFORE_STOP.test(before) || !ONE_DIGIT_AFTER.test(after)) return false;
  return DIGIT_THEN_END.test(after) || digitThenMedicine(before, after) || (valueNamedBefore(before) && DIGIT_THEN_CLAUSE.test(after));
}

const STOP_AS_POINT = /(?<![\d.,])(\d{1,3}) ?\. (\d|zero|oh|one)(?![\p{L}\d])/giu;
const DIGIT_WORD: Record<string, string> = { zero: '0', oh: '0', one: '1' };

/** A number of digits with its decimal said as a word ('38 point 4', '2 and a half'), written as one. */
export function joinSpokenDecimals(text: string, language: Language): string {
  const mark = language === 'en' ? '.' : ',';
  return text
    .replace(STOP_AS_POINT, (all: string, whole: string, digit: string, at: number, whole_text: string) =>
      language === 'en' && stopIsDecimalPoint(foldWord(whole_text.slice(Math.max(0, at - 120), at + all.indexOf('.'))), foldWord(whole_text.slice(at + all.indexOf('.') + 1, at + all.length + 40)))
        ? `${whole}.${DIGIT_WORD[digit.toLowerCase()] ?? digit}`
        : all,
    )
    .replace(/(?<![\d.,])(\d+) (?:point|virgula|vírgula|ponto|komma|coma|punto) (\d+)(?![\d.,]\d)/giu, `$1${mark}$2`)
    .replace(/(?<![\d.,])(\d+) (?:and a half|e meio|e meia|y medio|y media|einhalb)(?!\p{L})/giu, (_all, whole: string) => `${whole}${mark}5`);
}
