/**
 * Numbers said in words, as a speech engine writes them ('one hundred and fifty over ninety five', 'quatrocentos
 * miligramas', 'hundertfünfzig zu fünfundneunzig', 'ciento cincuenta'), turned into digits so a note reads as a
 * clinician writes it. A lone 'one' / 'um' / 'ein' / 'un' stays a word: it is more often an article.
 */
import type { Language } from '../../../../contract/constants.js';

type Words = { units: Record<string, number>; tens: Record<string, number>; hundreds: Record<string, number>; thousand: string[]; joins: string[]; articles: string[] };

const WORDS: Record<Exclude<Language, 'de'>, Words> = {
  en: {
    units: { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 },
    tens: { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 },
    hundreds: { hundred: 100 },
    thousand: ['thousand'],
    joins: ['and'],
    articles: ['one'],
  },
  pt: {
    units: { zero: 0, um: 1, uma: 1, dois: 2, duas: 2, três: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10, onze: 11, doze: 12, treze: 13, catorze: 14, quatorze: 14, quinze: 15, dezasseis: 16, dezesseis: 16, dezassete: 17, dezessete: 17, dezoito: 18, dezanove: 19, dezenove: 19 },
    tens: { vinte: 20, trinta: 30, quarenta: 40, cinquenta: 50, sessenta: 60, setenta: 70, oitenta: 80, noventa: 90 },
    hundreds: { cem: 100, cento: 100, duzentos: 200, duzentas: 200, trezentos: 300, trezentas: 300, quatrocentos: 400, quatrocentas: 400, quinhentos: 500, quinhentas: 500, seiscentos: 600, seiscentas: 600, setecentos: 700, setecentas: 700, oitocentos: 800, oitocentas: 800, novecentos: 900, novecentas: 900 },
    thousand: ['mil'],
    joins: ['e'],
    articles: ['um', 'uma'],
  },
  es: {
    units: { cero: 0, uno: 1, un: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19, veintiuno: 21, veintidós: 22, veintitrés: 23, veinticuatro: 24, veinticinco: 25, veintiséis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29 },
    tens: { veinte: 20, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 },
    hundreds: { cien: 100, ciento: 100, doscientos: 200, doscientas: 200, trescientos: 300, trescientas: 300, cuatrocientos: 400, cuatrocientas: 400, quinientos: 500, quinientas: 500, seiscientos: 600, seiscientas: 600, setecientos: 700, setecientas: 700, ochocientos: 800, ochocientas: 800, novecientos: 900, novecientas: 900 },
    thousand: ['mil'],
    joins: ['y'],
    articles: ['un', 'una', 'uno'],
  },
};

const DE_UNITS: Record<string, number> = { null: 0, ein: 1, eins: 1, eine: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwölf: 12, dreizehn: 13, vierzehn: 14, fünfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19 };
const DE_TENS: Record<string, number> = { zwanzig: 20, dreißig: 30, dreissig: 30, vierzig: 40, fünfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 };

/** One German number word, compounds included ('hundertfünfundneunzig', 'zweitausend'); undefined if not one. */
function germanNumber(word: string): number | undefined {
  const below100 = (w: string): number | undefined => {
    if (w === '') return 0;
    if (w in DE_UNITS) return DE_UNITS[w];
    if (w in DE_TENS) return DE_TENS[w];
    const m = w.match(/^(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)und(\p{L}+)$/u);
    if (m && m[2]! in DE_TENS) return DE_UNITS[m[1]!]! + DE_TENS[m[2]!]!;
    return undefined;
  };
  const below1000 = (w: string): number | undefined => {
    const m = w.match(/^(?:(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)?hundert)?(\p{L}*)$/u);
    if (!m) return undefined;
    const hundreds = w.includes('hundert') ? (m[1] ? DE_UNITS[m[1]]! : 1) * 100 : 0;
    const rest = below100(m[2]!);
    return rest === undefined ? undefined : hundreds + rest;
  };
  const t = word.toLowerCase().split('tausend');
  if (t.length > 2) return undefined;
  if (t.length === 2) {
    const thousands = t[0] === '' ? 1 : below1000(t[0]!);
    const rest = below1000(t[1]!);
    return thousands === undefined || rest === undefined ? undefined : thousands * 1000 + rest;
  }
  return word === '' ? undefined : below1000(word.toLowerCase());
}

/** The value of a run of number words (en, pt, es), or undefined when they do not make one number. */
function valueOf(tokens: string[], w: Words): number | undefined {
  let total = 0;
  let current = 0;
  for (const t of tokens) {
    if (w.joins.includes(t)) continue;
    if (t in w.units) current += w.units[t]!;
    else if (t in w.tens) current += w.tens[t]!;
    else if (t in w.hundreds) current = current === 0 || w.hundreds[t]! > 100 ? current + w.hundreds[t]! : current * 100;
    else if (w.thousand.includes(t)) {
      total += (current || 1) * 1000;
      current = 0;
    } else return undefined;
  }
  return total + current;
}

/** A single digit said after a decimal point: 'one', 'um', 'eins', 'uno' stay words elsewhere (articles). */
const DECIMAL_DIGIT: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  um: 1, uma: 1, dois: 2, duas: 2, três: 3, tres: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9,
  null: 0, eins: 1, ein: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9,
  cero: 0, uno: 1, un: 1, dos: 2, cuatro: 4, siete: 7, ocho: 8, nueve: 9,
};

/** Units as a note abbreviates them after a number ('50 miligramas' → '50 mg'). */
const UNITS: [RegExp, string][] = [
  [/(\d) ?(?:milligrams?|miligramas?|miligramos?|milligramm)(?!\p{L})/giu, '$1 mg'],
  [/(\d) ?(?:micrograms?|microgramas?|microgramos?|mikrogramm)(?!\p{L})/giu, '$1 µg'],
  [/(\d) ?(?:millilitres?|milliliters?|mililitros?|milliliter)(?!\p{L})/giu, '$1 ml'],
  [/(\d) ?(?:kilograms?|kilos?|quilos?|quilogramas?|kilogramos?|kilogramm)(?!\p{L})/giu, '$1 kg'],
  [/(\d) ?(?:per ?cent|por cento|por ciento|prozent)(?!\p{L})/giu, '$1 %'],
];

/** A half said after a unit or a number ('67 kg e meio', '2 and a half') written as a decimal. */
const HALF: Record<Language, RegExp> = {
  en: /(?<!\d[.,])\b(\d+)( \S+)? and a half\b/giu,
  pt: /(?<!\d[.,])\b(\d+)( \S+)? e meio\b/giu,
  de: /(?<!\d[.,])\b(\d+)( \S+)? und ein halb\b/giu,
  es: /(?<!\d[.,])\b(\d+)( \S+)? y medio\b/giu,
};

/**
 * The text with numbers said in words written in digits, a decimal point said too ('38 point 4' → '38.4'), a
 * half as a decimal and units as a note abbreviates them.
 */
export function digitsForSpokenNumbers(text: string, language: Language): string {
  const mark = language === 'en' ? '.' : ',';
  const decimals = wordsToDigits(text, language)
    .replace(/\b(\d+) (?:point|virgula|vírgula|komma|coma|punto) (\d+)\b/giu, `$1${mark}$2`)
    .replace(/\b(\d+) (?:point|virgula|vírgula|komma|coma|punto) (\p{L}+)(?!\p{L})/giu, (all, whole: string, word: string) =>
      word.toLowerCase() in DECIMAL_DIGIT ? `${whole}${mark}${DECIMAL_DIGIT[word.toLowerCase()]}` : all,
    );
  const units = UNITS.reduce((t, [pattern, as]) => t.replace(pattern, as), decimals);
  return units.replace(HALF[language], (_all, whole: string, unit: string | undefined) => `${whole}${mark}5${unit ?? ''}`);
}

/** Numbers as a note writes them: in digits, and a pair said 'over' / 'por' / 'zu' written 150/95. */
export function numbersAsNoted(text: string, language: Language): string {
  return digitsForSpokenNumbers(text, language).replace(/(\d+) (?:over|por|sobre|con|zu|auf) (\d+)/g, '$1/$2');
}

function wordsToDigits(text: string, language: Language): string {
  if (language === 'de') {
    return text.replace(/\p{L}+/gu, (word) => {
      const lower = word.toLowerCase();
      // 'ein', 'eine', 'eins' alone are articles or a plain 'one'; they stay words.
      if (['ein', 'eine', 'eins', 'einen', 'einer', 'einem'].includes(lower)) return word;
      const n = germanNumber(lower);
      return n === undefined ? word : String(n);
    });
  }
  const w = WORDS[language];
  const isNumberWord = (t: string) => t in w.units || t in w.tens || t in w.hundreds || w.thousand.includes(t);
  const tokens = text.split(/(\s+)/);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    const word = tokens[i]!.toLowerCase().replace(/[.,;:!?]+$/, '');
    if (!isNumberWord(word)) {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    // The longest run of number words (and the joins between them: 'one hundred and fifty').
    const run: string[] = [];
    let j = i;
    let end = i;
    while (j < tokens.length) {
      const raw = tokens[j]!;
      if (/^\s+$/.test(raw)) {
        j++;
        continue;
      }
      const t = raw.toLowerCase().replace(/[.,;:!?]+$/, '');
      let k = j + 1;
      while (k < tokens.length && /^\s+$/.test(tokens[k]!)) k++;
      const next = tokens[k]?.toLowerCase().replace(/[.,;:!?]+$/, '');
      if (isNumberWord(t) || (w.joins.includes(t) && run.length > 0 && next !== undefined && isNumberWord(next))) {
        run.push(t);
        end = j;
        j++;
        if (/[.,;:!?]$/.test(raw)) break;
      } else break;
    }
    const value = valueOf(run, w);
    const lone = run.length === 1 && w.articles.includes(run[0]!);
    if (value === undefined || lone) {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    const trailing = tokens[end]!.match(/[.,;:!?]+$/)?.[0] ?? '';
    out.push(String(value) + trailing);
    i = end + 1;
  }
  return out.join('');
}
