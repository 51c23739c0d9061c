/**
 * Numbers with their units, as notes and transcripts write or say them ('20 mg', '128/72', '45%', '8 cm',
 * '3 months', 'one fifty four pounds'), compared as numbers: '45 %' is '45%', '98.60' is '98.6'.
 */
import { numbersAsDigits, type NumberLanguage } from './spoken-numbers.js';

/** A unit and the kind of thing it measures: within a dimension a different unit is a wrong value. */
type UnitDef = { unit: string; dimension: string; words: string[] };

/** A unit per another in the ways it is written and said: 'mg/dl', 'mg per deciliter', 'milligrams per dl'. */
const per = (tops: string[], bottoms: string[]) => tops.flatMap((t) => bottoms.flatMap((b) => [`${t}/${b}`, `${t} per ${b}`]));

/** Longest spellings first where one is the start of another ('mg/dl' before 'mg'). */
const UNITS: UnitDef[] = [
  { unit: 'mg/dl', dimension: 'concentration', words: per(['mg', 'milligrams', 'milligram'], ['dl', 'deciliter', 'decilitre']) },
  { unit: 'g/dl', dimension: 'concentration', words: per(['g', 'grams', 'gram'], ['dl', 'deciliter', 'decilitre']) },
  { unit: 'mmol/l', dimension: 'concentration', words: ['mmol/l', 'mmol', 'millimoles per liter'] },
  { unit: 'ng/ml', dimension: 'concentration', words: ['ng/ml', 'nanograms per milliliter'] },
  { unit: 'meq', dimension: 'amount', words: ['meq', 'milliequivalents'] },
  { unit: 'mg/kg', dimension: 'dose-by-weight', words: per(['mg', 'milligrams', 'milligram'], ['kg', 'kilogram']) },
  { unit: 'mcg', dimension: 'mass', words: ['mcg', 'µg', 'micrograms', 'microgram'] },
  { unit: 'mg', dimension: 'mass', words: ['mg', 'mgs', 'milligrams', 'milligram', 'milligramme', 'milligrammes', 'm g'] },
  { unit: 'kg', dimension: 'mass', words: ['kg', 'kgs', 'kilograms', 'kilogram', 'kilos', 'kilo'] },
  { unit: 'g', dimension: 'mass', words: ['grams', 'gram', 'g'] },
  { unit: 'lb', dimension: 'mass', words: ['lbs', 'lb', 'pounds', 'pound'] },
  { unit: 'oz', dimension: 'mass', words: ['ounces', 'ounce', 'oz'] },
  { unit: 'mmhg', dimension: 'pressure', words: ['mmhg', 'mm hg', 'millimeters of mercury'] },
  { unit: 'l/min', dimension: 'flow', words: ['l/min', 'liters per minute', 'litres per minute', 'lpm', 'liters of oxygen', 'liters'] },
  { unit: 'ml', dimension: 'volume', words: ['ml', 'milliliters', 'milliliter', 'millilitres', 'millilitre', 'cc', 'ccs', 'm l'] },
  { unit: 'l', dimension: 'volume', words: ['litres', 'litre', 'liter'] },
  { unit: 'bpm', dimension: 'rate', words: ['bpm', 'beats per minute', 'beats a minute', 'beats/min'] },
  { unit: 'breaths/min', dimension: 'rate', words: ['breaths per minute', 'breaths a minute', 'breaths/min', 'breaths'] },
  { unit: '%', dimension: 'percent', words: ['%', 'percent', 'per cent'] },
  { unit: 'cm', dimension: 'length', words: ['cm', 'centimeters', 'centimeter', 'centimetres', 'centimetre'] },
  { unit: 'mm', dimension: 'length', words: ['mm', 'millimeters', 'millimeter', 'millimetres', 'millimetre'] },
  { unit: 'in', dimension: 'length', words: ['inches', 'inch', '"'] },
  { unit: 'ft', dimension: 'length', words: ['feet', 'foot', 'ft'] },
  { unit: 'mi', dimension: 'length', words: ['miles', 'mile'] },
  { unit: 'km', dimension: 'length', words: ['km', 'kilometers', 'kilometres'] },
  { unit: '°f', dimension: 'temperature', words: ['°f', '° f', 'degrees fahrenheit', 'degree fahrenheit', 'fahrenheit'] },
  { unit: '°c', dimension: 'temperature', words: ['°c', '° c', 'degrees celsius', 'degree celsius', 'celsius', 'centigrade'] },
  // Degrees alone fit a temperature in either scale, or an angle.
  { unit: '°', dimension: 'temperature', words: ['degrees', 'degree', '°'] },
  { unit: 'second', dimension: 'time', words: ['seconds', 'second', 'secs', 'sec'] },
  { unit: 'minute', dimension: 'time', words: ['minutes', 'minute', 'mins', 'min'] },
  { unit: 'hour', dimension: 'time', words: ['hours', 'hour', 'hrs', 'hr'] },
  { unit: 'day', dimension: 'time', words: ['days', 'day'] },
  { unit: 'week', dimension: 'time', words: ['weeks', 'week', 'wks', 'wk'] },
  { unit: 'month', dimension: 'time', words: ['months', 'month', 'mos'] },
  { unit: 'year', dimension: 'time', words: ['years', 'year', 'yrs', 'yr', 'y/o', 'yo'] },
  { unit: 'unit', dimension: 'units', words: ['international units', 'units', 'unit', 'iu'] },
  { unit: 'times', dimension: 'count', words: ['times', 'x'] },
  {
    unit: 'dose',
    dimension: 'count',
    words: [
      'tablets',
      'tablet',
      'tabs',
      'tab',
      'pills',
      'pill',
      'capsules',
      'capsule',
      'puffs',
      'puff',
      'drops',
      'sprays',
      'doses',
      'dose',
      'injections',
      'shots',
    ],
  },
  { unit: 'drink', dimension: 'count', words: ['drinks', 'drink', 'beers', 'beer', 'glasses', 'glass', 'cups', 'cup', 'packs', 'pack', 'cigarettes'] },
  { unit: 'pack-year', dimension: 'count', words: ['pack years', 'pack-years', 'pack year'] },
  { unit: '+', dimension: 'grade', words: ['+', 'plus'] },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const UNIT_BY_WORD = new Map(UNITS.flatMap((u) => u.words.map((w) => [w, u] as const)));
const UNIT_WORDS = [...UNIT_BY_WORD.keys()].sort((a, b) => b.length - a.length);
/** The unit right after a number: '20 mg', '45%', '58-year-old', '8cm', '1+'. Words must end at a word boundary. */
const UNIT_AFTER = new RegExp(
  `^(?:\\s?-?\\s?)(${UNIT_WORDS.map((w) => (/\w$/.test(w) ? `${escapeRegExp(w).replace(/ /g, '[\\s-]')}\\b` : escapeRegExp(w))).join('|')})`,
  'i',
);

export type Quantity = {
  /** '45', '98.6', '128/72' */
  value: string;
  unit?: string;
  dimension?: string;
  /** Where it was found, in the text as read (spoken numbers written in digits). */
  index: number;
  text: string;
};

const canonical = (n: string) => String(Number(n.replace(/,/g, '')));

/**
 * The quantities of a text, spoken numbers read first. Dates (01/10/09), times (10:30) and numbers inside words
 * (COVID-19, T2) are left out: they are not measurements a note keeps or loses.
 */
export function quantitiesIn(text: string, language: NumberLanguage = 'en'): Quantity[] {
  const read = numbersAsDigits(text, language);
  const out: Quantity[] = [];
  const number = /(?<![\w./:,-]|\d[.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?\/\s?(\d+(?:\.\d+)?))?(?![\d/]|[.,:]\d)/g;
  for (const m of read.matchAll(number)) {
    const after = read.slice(m.index + m[0].length);
    const unitMatch = UNIT_AFTER.exec(after);
    const unitWord = unitMatch?.[1]?.toLowerCase().replace(/[\s-]+/g, ' ');
    const def = unitWord ? (UNIT_BY_WORD.get(unitWord) ?? UNIT_BY_WORD.get(unitWord.replace(/ /g, '-'))) : undefined;
    // '2nd', '4th', 'x2y': a number glued to letters that are not its unit is no measurement.
    if (!def && /^[a-z]/i.test(after)) continue;
    const value = m[2] ? `${canonical(m[1]!)}/${canonical(m[2])}` : canonical(m[1]!);
    out.push({ value, ...(def ? { unit: def.unit, dimension: def.dimension } : {}), index: m.index, text: m[0] + (unitMatch?.[0] ?? '') });
  }
  return out;
}

/** A value that stands on its own without a unit: a ratio, a decimal, or a number of two digits or more. */
export const distinctive = (value: string) => value.includes('/') || value.includes('.') || Number(value) >= 10;

/** Same value and a unit that fits: the same unit, 'degrees' for either scale, or no unit on one side for a distinctive value. */
export function sameQuantity(a: Quantity, b: Quantity, lenient = false): boolean {
  if (a.value !== b.value) return false;
  if (a.unit === undefined || b.unit === undefined) return lenient || distinctive(a.value);
  if (a.unit === b.unit) return true;
  return a.dimension === 'temperature' && b.dimension === 'temperature' && (a.unit === '°' || b.unit === '°');
}

/** Same value, same dimension, a unit that does not fit: '154 pounds' said, '154 kg' written. */
export const unitMismatch = (written: Quantity, said: Quantity): boolean =>
  written.value === said.value && written.unit !== undefined && said.unit !== undefined && written.dimension === said.dimension && !sameQuantity(written, said);

/** Conversions a note may add beside a value ('98 °F (36.7 °C)', '7 lb (3.2 kg)'): right, so not a wrong value. */
const CONVERSIONS: Record<string, Record<string, (x: number) => number>> = {
  '°f': { '°c': (f) => ((f - 32) * 5) / 9 },
  '°c': { '°f': (c) => (c * 9) / 5 + 32 },
  '°': { '°c': (f) => ((f - 32) * 5) / 9, '°f': (c) => (c * 9) / 5 + 32 },
  lb: { kg: (x) => x * 0.45359237, g: (x) => x * 453.59237 },
  kg: { lb: (x) => x / 0.45359237 },
  oz: { g: (x) => x * 28.349523 },
  in: { cm: (x) => x * 2.54 },
  cm: { in: (x) => x / 2.54 },
  ft: { cm: (x) => x * 30.48, m: (x) => x * 0.3048 },
};

/** Whether a written value is a said value converted to another unit, to the precision it is written with. */
export function convertedFrom(written: Quantity, said: Quantity): boolean {
  if (!written.unit || !said.unit || written.value.includes('/') || said.value.includes('/')) return false;
  const convert = CONVERSIONS[said.unit]?.[written.unit];
  if (!convert) return false;
  const decimals = written.value.split('.')[1]?.length ?? 0;
  return Math.abs(convert(Number(said.value)) - Number(written.value)) <= 0.5 * 10 ** -decimals + 1e-9;
}
