/**
 * Vitals and lab values said in a consultation, read only where they are safe to write as a structured line: the
 * measurement is named ('blood pressure', 'tensão', 'Puls', 'HbA1c'), its value follows within a few words in the
 * same clause, in a unit that fits it (a weight in pounds stays pounds; '4 months' after 'A1c' is no A1c), the
 * clause speaks of this patient now (not 'if I weigh…', 'another A1c in…', 'last time it was…', 'at home it runs
 * around…'), and the value is plausible. Two different values for one measurement are no value. A value named
 * and of now but implausible is returned as a check, for the note to mark in its sentence. Sentences are read
 * with their numbers already in digits.
 */
import type { Language } from '../../../contract/constants.js';
import { formatNumber } from './numbers.js';
import { scopesAround, sentenceIsPast } from './scope.js';
import { fold } from './text.js';

export type Measure = 'bloodpressure' | 'heartrate' | 'temperature' | 'saturation' | 'weight' | 'bmi' | 'hba1c' | 'cholesterol';
export type MeasuredValue = { value: string; source: string };
/** A value named and of now, but outside what a living patient could have: its sentence is marked. */
export type ValueToCheck = { measure: Measure; written: string; sentence: number; at: number; end: number };

type Unit = 'mmHg' | 'bpm' | '°C' | '°F' | '%' | 'kg' | 'lb' | 'kg/m²' | 'mg/dL' | 'mmol/L';

const CUES: Record<Measure, RegExp> = {
  bloodpressure:
    /(?:blood pressures?|pressure|\bbp\b|tensao(?: arterial)?|pressao arterial|\bta\b|\bpa\b|blutdruck|\brr\b|tension(?: arterial)?|presion(?: arterial)?)/g,
  // 'Pulse oximetry' is the saturation.
  heartrate: /(?:heart rate|pulse(?! ?ox)|\bhr\b|frequencia cardiaca|\bfc\b|pulso(?! ?ox)|herzfrequenz|\bpuls\b(?! ?ox)|frecuencia cardiaca)/g,
  temperature: /(?:temperature|\btemp\b|temperatura|temperatur|fever of|febre de|fieber von|fiebre de)/g,
  saturation: /(?:saturation|\bsats?\b|saturacao|sattigung|saturacion|\bspo2\b|\bo2 sat\w*|oxygen level)/g,
  weight: /(?:weight|weighs?|weighed|weighing|\bpeso\b|\bpesa\b|\bpesava\b|gewicht|wiegt|wiege)/g,
  bmi: /(?:\bbmi\b|\bimc\b|body mass index|indice de massa corporal|indice de masa corporal)/g,
  hba1c: /(?:hba1c|hb a1c|\ba1c\b|hemoglobin a1c|haemoglobin a1c|hemoglobina glicada|hemoglobina glicosilada|glykiertes hamoglobin|glycated ha?emoglobin)/g,
  // Total cholesterol only: LDL, HDL and ratios are other values.
  cholesterol: /(?<!(?:ldl|hdl|non-hdl) )(?:cholesterol|colesterol|cholesterin)(?! ?(?:ratio|ldl|hdl))/g,
};
const ANY_CUE = new RegExp(
  Object.values(CUES)
    .map((c) => c.source)
    .join('|'),
);

const UNIT_WORDS: [RegExp, Unit][] = [
  [/^(?:mm ?hg|millimet(?:er|re)s? of mercury)/, 'mmHg'],
  [/^(?:bpm|beats(?: per minute| a minute)?|batimentos|pulsacoes|schlage|latidos)/, 'bpm'],
  [/^(?:°|º)? ?f(?![\p{L}])|^degrees? fahrenheit|^fahrenheit/u, '°F'],
  [/^(?:°|º)? ?c(?![\p{L}])|^(?:degrees?|graus?|grad|grados?) (?:celsius|centigrados?)|^celsius/u, '°C'],
  [/^(?:%|percent|per cent|por cento|prozent|por ciento)/, '%'],
  [/^(?:kg\/m2|kg\/m²)/, 'kg/m²'],
  [/^(?:kg|kilos?|kilograms?|quilos?|quilogramas?|kilogramm|kilogramos?)(?![\p{L}])/u, 'kg'],
  [/^(?:lbs?|pounds?)(?![\p{L}])/u, 'lb'],
  [/^mg ?\/ ?dl|^milligrams? per deciliter/, 'mg/dL'],
  [/^mmol ?(?:\/ ?l)?(?![\p{L}])/u, 'mmol/L'],
];
/** Words after a number that make it something else than the value: a duration, a dose, a count. */
const OTHER_UNIT =
  /^(?:days?|weeks?|months?|years?|hours?|minutes?|times|dias?|semanas?|mes|meses|anos?|horas?|minutos?|vezes|tage?n?|wochen?|monate?n?|jahre?n?|stunden?|minuten?|mal|veces|mg|milligrams?|mcg|ml|units?|tablets?|pills?|puffs?|o'?clock|am|pm|a\.m|p\.m)(?![\p{L}])/u;
/** A number followed by a range or another number is not one value ('80 to 90', '80 or 90'). */
const RANGE_AFTER = /^(?:-|–|to|or|a|ou|bis|oder|o|and|e|und|y|,)?\s*(?:then\s+|depois\s+|dann\s+|luego\s+|now\s+|agora\s+|jetzt\s+|ahora\s+)?\d/;
/** Words that say 'degrees' with no scale. */
const DEGREES = /^(?:degrees?|graus?|grad|grados?)(?![\p{L}])/u;

const PLAUSIBLE: Record<Unit, [number, number]> = {
  mmHg: [30, 260],
  bpm: [25, 250],
  '°C': [34, 43],
  '°F': [93, 109.5],
  '%': [50, 100],
  'kg/m²': [10, 80],
  kg: [2, 350],
  lb: [5, 700],
  'mg/dL': [50, 500],
  'mmol/L': [1, 15],
};

type Found = { measure: Measure; numbers: number[]; unit?: Unit; sentence: number; at: number; end: number };

/** The unit said right after a value, or 'other' when what follows makes it no value of this kind. */
function unitAfter(rest: string): Unit | 'other' | 'degrees' | undefined {
  const t = rest.trimStart();
  for (const [pattern, unit] of UNIT_WORDS) if (pattern.test(t)) return unit;
  if (DEGREES.test(t)) return 'degrees';
  // 'a1c 7 . 3': a value cut by a stop is not the value.
  if (OTHER_UNIT.test(t) || RANGE_AFTER.test(t) || /^\?/.test(t) || /^[.,]\s*\d/.test(t)) return 'other';
  return undefined;
}

/** The units a measurement may be said in, and the one it has when none is said (undefined: cannot tell). */
function unitFor(measure: Measure, said: Unit | 'degrees' | undefined, value: number, language: Language): Unit | undefined | 'wrong' {
  switch (measure) {
    case 'bloodpressure':
      return said === undefined || said === 'mmHg' ? 'mmHg' : 'wrong';
    case 'heartrate':
      return said === undefined || said === 'bpm' ? 'bpm' : 'wrong';
    case 'saturation':
      return said === undefined || said === '%' ? '%' : 'wrong';
    case 'hba1c':
      return said === undefined || said === '%' ? '%' : said === 'mmol/L' ? undefined : 'wrong';
    case 'bmi':
      return said === undefined || said === 'kg/m²' ? 'kg/m²' : 'wrong';
    case 'temperature':
      if (said === '°C' || said === '°F') return said;
      if (said !== undefined && said !== 'degrees') return 'wrong';
      // No scale said: the value tells it, where only one scale could hold it.
      return value >= 93 && value <= 109.5 ? '°F' : value >= 30 && value <= 45 ? '°C' : undefined;
    case 'weight':
      if (said === 'kg' || said === 'lb') return said;
      if (said !== undefined) return 'wrong';
      // In English a weight is said in pounds as often as in kilograms.
      return language === 'en' ? undefined : 'kg';
    case 'cholesterol':
      if (said === 'mg/dL' || said === 'mmol/L') return said;
      if (said !== undefined) return 'wrong';
      return value >= 50 ? 'mg/dL' : value <= 15 ? 'mmol/L' : undefined;
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function formatted(measure: Measure, numbers: number[], unit: Unit, language: Language): string {
  const n = (v: number) => formatNumber(v, language);
  if (measure === 'bloodpressure') return `${numbers[0]}/${numbers[1]} mmHg`;
  const v = numbers[0]!;
  // A conversion only beside the value as said.
  if (unit === '°F') return `${n(v)} °F (${n(round1(((v - 32) * 5) / 9))} °C)`;
  if (unit === 'lb') return `${n(v)} lb (${n(round1(v * 0.45359237))} kg)`;
  return `${n(v)} ${unit}`;
}

function plausible(measure: Measure, numbers: number[], unit: Unit): boolean {
  if (measure === 'bloodpressure') {
    const [sys, dia] = numbers as [number, number];
    return sys >= 60 && sys <= 260 && dia >= 30 && dia <= 160 && sys > dia;
  }
  const [lo, hi] = PLAUSIBLE[unit];
  if (measure === 'hba1c') return numbers[0]! >= 3 && numbers[0]! <= 20;
  return numbers[0]! >= lo && numbers[0]! <= hi;
}

const VALUE = /^(\d{1,3}(?:[.,]\d{1,2})?)(?![\d])/;
const PAIR = /^(\d{2,3})\s*(?:\/|(?:over\s+)+|por\s+|sobre\s+|con\s+|zu\s+|auf\s+)(\d{2,3})(?![\d.,]\d|\d|\/\d)/;

/**
 * Every value named in a sentence (folded) with its unit as said: `found` in a clause of now, `planned` in a
 * clause that also says it will be repeated ('repeat blood pressure 140/85'), which makes the measurement's value
 * ambiguous.
 */
function valuesIn(folded: string, sentence: number, language: Language): { found: Found[]; planned: Found[] } {
  const found: Found[] = [];
  const planned: Found[] = [];
  for (const measure of Object.keys(CUES) as Measure[]) {
    for (const cue of folded.matchAll(CUES[measure])) {
      const from = cue.index! + cue[0].length;
      // The value within six words of its name, with no other number or measurement between.
      const window = folded.slice(from, from + 60);
      const lead = window.match(/^(?:[\s:=,?'’s-]*(?:[\p{L}'’]+[\s:=,?-]*){0,6}?)(?=\d)/u);
      if (!lead || /\d/.test(lead[0]) || ANY_CUE.test(lead[0]) || /[.!;]/.test(lead[0])) continue;
      const at = from + lead[0].length;
      // A window, not the rest of the sentence: a long sentence is read value after value.
      const rest = folded.slice(at, at + 40);
      const m = measure === 'bloodpressure' ? rest.match(PAIR) : rest.match(VALUE);
      if (!m) continue;
      const numbers = measure === 'bloodpressure' ? [Number(m[1]), Number(m[2])] : [Number(m[1]!.replace(',', '.'))];
      const end = at + m[0].length;
      const after = unitAfter(folded.slice(end, end + 60));
      if (after === 'other') continue;
      const unit = unitFor(measure, after, numbers[0]!, language);
      if (unit === 'wrong') continue;
      const scopes = scopesAround(folded, cue.index!, end, language);
      // A time said anywhere in the sentence ('Two weeks ago, blood pressure 150/95') makes it no value of now.
      if (sentenceIsPast(folded, language)) scopes.add('past');
      const value = { measure, numbers, ...(unit ? { unit } : {}), sentence, at, end };
      if (scopes.size === 0) found.push(value);
      else if (scopes.size === 1 && scopes.has('planned')) planned.push(value);
    }
  }
  return { found, planned };
}

/**
 * The measurements a consultation's sentences state unambiguously, one value each, and the values to check.
 * A measurement said with two different values, or whose unit cannot be told, has no structured value.
 */
export function readMeasurements(sentences: string[], language: Language): { values: Partial<Record<Measure, MeasuredValue>>; checks: ValueToCheck[] } {
  const byMeasure = new Map<Measure, Found[]>();
  const repeated = new Set<Measure>();
  sentences.forEach((s, i) => {
    const { found, planned } = valuesIn(fold(s), i, language);
    for (const f of found) {
      const list = byMeasure.get(f.measure);
      if (list) list.push(f);
      else byMeasure.set(f.measure, [f]);
    }
    for (const f of planned) repeated.add(f.measure);
  });
  const values: Partial<Record<Measure, MeasuredValue>> = {};
  const checks: ValueToCheck[] = [];
  for (const [measure, all] of byMeasure) {
    const good = all.filter((f) => f.unit && plausible(measure, f.numbers, f.unit));
    for (const f of all)
      if (f.unit && !plausible(measure, f.numbers, f.unit))
        checks.push({ measure, written: sentences[f.sentence]!.slice(f.at, f.end).trim(), sentence: f.sentence, at: f.at, end: f.end });
    const distinct = new Set(good.map((f) => `${f.numbers.join('/')} ${f.unit}`));
    if (good.length === 0 || distinct.size !== 1 || all.some((f) => !f.unit) || repeated.has(measure)) continue;
    const first = good[0]!;
    values[measure] = { value: formatted(measure, first.numbers, first.unit!, language), source: sentences[first.sentence]! };
  }
  return { values, checks };
}
