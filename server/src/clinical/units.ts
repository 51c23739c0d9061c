/**
 * Numbers and units as a clinician's note writes them: numbers said in words in digits (numbers.ts), a decimal
 * said as a word joined ('38 point 4' → 38.4), a half as a decimal, units abbreviated ('50 miligramas' → '50 mg',
 * '154 pounds' → '154 lb'), and a pair said 'over' written 150/95. A unit is never changed into another: a
 * conversion is written only beside the value as said (measurements.ts).
 */
import type { Language } from '../../../contract/constants.js';
import { joinSpokenDecimals, wordsToDigits } from './numbers.js';

const UNITS: [RegExp, string][] = [
  [/(\d) ?(?:milligrams?|miligramas?|miligramos?|milligramm)(?!\p{L})/giu, '$1 mg'],
  [/(\d) ?(?:micrograms?|microgramas?|microgramos?|mikrogramm)(?!\p{L})/giu, '$1 µg'],
  [/(\d) ?(?:millilitres?|milliliters?|mililitros?|milliliter)(?!\p{L})/giu, '$1 ml'],
  [/(\d) ?(?:kilograms?|kilos?|quilos?|quilogramas?|kilogramos?|kilogramm)(?!\p{L})/giu, '$1 kg'],
  [/(\d) ?(?:pounds|lbs)(?!\p{L})/giu, '$1 lb'],
  [/(\d) ?(?:per ?cent|percent|por cento|por ciento|prozent)(?!\p{L})/giu, '$1 %'],
];

/** A half said after a number and its unit ('67 kg e meio') written as a decimal. */
const HALF_AFTER_UNIT: Record<Language, RegExp> = {
  en: /(?<![\d.,])(\d+)( (?:kg|mg|µg|ml|lb|%|hours?|days?|weeks?|months?|years?)) and a half(?!\p{L})/giu,
  pt: /(?<![\d.,])(\d+)( (?:kg|mg|µg|ml|%|horas?|dias?|semanas?|meses|anos?)) e mei[oa](?!\p{L})/giu,
  de: /(?<![\d.,])(\d+)( (?:kg|mg|µg|ml|%|stunden?|tage?|wochen?|monate?|jahre?)) und ein halb(?!\p{L})/giu,
  es: /(?<![\d.,])(\d+)( (?:kg|mg|µg|ml|%|horas?|dias?|días?|semanas?|meses|años?|anos?)) y medi[oa](?!\p{L})/giu,
};

/** The text with its numbers in digits and its units abbreviated, as a note writes them. */
export function digitsForSpokenNumbers(text: string, language: Language): string {
  const mark = language === 'en' ? '.' : ',';
  const digits = joinSpokenDecimals(wordsToDigits(text, language), language);
  const units = UNITS.reduce((t, [pattern, as]) => t.replace(pattern, as), digits);
  return units.replace(HALF_AFTER_UNIT[language], (_all, whole: string, unit: string) => `${whole}${mark}5${unit}`);
}

/** Numbers as a note writes them, a pair said 'over' / 'por' / 'zu' written 150/95. */
export function numbersAsNoted(text: string, language: Language): string {
  return digitsForSpokenNumbers(text, language).replace(/(\d{2,3}) (?:(?:over )+|por |sobre |con |zu |auf )(\d{2,3})(?![\d.,]\d)/g, '$1/$2');
}
