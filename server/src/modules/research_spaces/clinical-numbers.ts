/**
 * Numbers in criteria and records, on normalised text (lower case, no accents), in the four languages: the
 * bounds a criterion sets ('40 to 75', '40–75', 'between 40 and 75', '≥ 40 and ≤ 75', '18 anos ou mais'), lab
 * values under their local names with decimal commas and unit variants, dates, and a patient's age (written, or
 * from the date of birth and the record's own date).
 */

export type Bounds = { min?: number; minStrict?: boolean; max?: number; maxStrict?: boolean };

const NUMBER = String.raw`(\d{1,4}(?:[.,]\d+)?)`;
export const toNumber = (s: string) => Number(s.replace(',', '.'));

export const within = (v: number, b: Bounds) => (b.min === undefined || (b.minStrict ? v > b.min : v >= b.min)) && (b.max === undefined || (b.maxStrict ? v < b.max : v <= b.max));

const UNIT = String.raw`\s*(?:%|years?|anos|jahre|ml\/min(?:\/1[.,]73\s*m(?:2|²)?)?|mmol\/mol|mg\/dl)?\s*`;
const RANGE_JOIN = String.raw`(?:-|–|—|to|a|ate|bis|hasta|and|e|und|y)`;
const MIN_WORDS = String.raw`>=|≥|=>|>|at least|minimum|minimo|mindestens|al menos|as minimo|no minimo|over|older than|above|more than|greater than|mais de|superior a|acima de|uber|mayor(?:es)? de|maior(?:es)? de|mas de|a partir de|ab|from`;
const MAX_WORDS = String.raw`<=|≤|=<|<|at most|maximum|maximo|hochstens|no more than|not older than|up to|until|ate|bis|hasta|under|younger than|below|less than|lower than|menos de|inferior a|abaixo de|unter|menor(?:es)? de|no maximo`;
const INCLUSIVE = /^(>=|≥|=>|<=|≤|=<|at least|minimum|minimo|mindestens|al menos|as minimo|no minimo|at most|maximum|maximo|hochstens|no more than|not older than|up to|until|ate|bis|hasta|no maximo|mayor(?:es)? de|maior(?:es)? de|a partir de|ab|from)$/;

/** The bounds a criterion puts on a number (units removed first: '1.73 m²' is not a bound). */
export function boundsIn(criterion: string): Bounds | undefined {
  const text = criterion.replace(/\/\s*1[.,]73\s*m(?:2|²)?/g, ' ');
  const range = text.match(new RegExp(`${NUMBER}${UNIT}(${RANGE_JOIN})\\s*${NUMBER}`));
  if (range) {
    const joinedByAnd = /^(?:and|e|und|y)$/.test(range[2]!);
    // '40 and 75' is a range only after 'between'; '40 to 75', '40–75', '40 a 75', '40 bis 75' always are.
    if (!joinedByAnd || /\b(between|entre|zwischen)\b/.test(text)) {
      const [a, b] = [toNumber(range[1]!), toNumber(range[3]!)];
      if (a < b) return { min: a, max: b };
    }
  }
  const bounds: Bounds = {};
  const min = text.match(new RegExp(`(?<![a-z])(${MIN_WORDS})\\s*(?:de\\s*|of\\s*)?${NUMBER}`));
  const max = text.match(new RegExp(`(?<![a-z])(${MAX_WORDS})\\s*(?:de\\s*|of\\s*)?${NUMBER}`));
  const orMore = text.match(new RegExp(`${NUMBER}${UNIT}(?:\\+|or older|or over|or more|or above|and older|and over|and above|ou mais|ou superior|o mas|o mayor|oder alter|oder mehr|oder daruber|und alter|und mehr)`));
  const orLess = text.match(new RegExp(`${NUMBER}${UNIT}(?:or younger|or less|or under|or below|and younger|ou menos|ou inferior|o menos|oder junger|oder weniger)`));
  if (min) Object.assign(bounds, { min: toNumber(min[2]!), minStrict: !INCLUSIVE.test(min[1]!) });
  else if (orMore) bounds.min = toNumber(orMore[1]!);
  if (max && (!min || max.index! !== min.index)) Object.assign(bounds, { max: toNumber(max[2]!), maxStrict: !INCLUSIVE.test(max[1]!) });
  else if (orLess) bounds.max = toNumber(orLess[1]!);
  return bounds.min === undefined && bounds.max === undefined ? undefined : bounds;
}

const MONTHS: Record<string, number> = {};
[
  'jan janeiro january januar enero',
  'fev fevereiro feb february februar febrero',
  'mar marco march marz maerz marzo',
  'abr abril apr april',
  'mai maio may mayo',
  'jun junho june juni junio',
  'jul julho july juli julio',
  'ago agosto aug august',
  'set setembro sep sept september septiembre setiembre',
  'out outubro oct october oktober octubre',
  'nov novembro november noviembre',
  'dez dezembro dec december dezember dic diciembre',
].forEach((names, i) => names.split(' ').forEach((n) => (MONTHS[n] = i + 1)));
const MONTH = `(${Object.keys(MONTHS).join('|')})\\.?`;

const DATE = new RegExp(
  [
    String.raw`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`,
    String.raw`\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b`,
    String.raw`\b(\d{1,2})\.?\s*(?:de\s+)?${MONTH}\s*(?:de\s+)?(\d{4})\b`,
    String.raw`\b${MONTH}\s+(\d{1,2}),?\s+(\d{4})\b`,
  ].join('|'),
  'g',
);

/** The dates written in a normalised text, in order. Day first unless that cannot be ('03/14/1968'). */
export function datesIn(text: string): Date[] {
  const found: Date[] = [];
  for (const m of text.matchAll(DATE)) {
    let y: number, mo: number, d: number;
    if (m[1]) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    else if (m[4]) {
      [d, mo, y] = [Number(m[4]), Number(m[5]), Number(m[6])];
      if (mo > 12 && d <= 12) [d, mo] = [mo, d];
    } else if (m[7]) [d, mo, y] = [Number(m[7]), MONTHS[m[8]!]!, Number(m[9])];
    else [mo, d, y] = [MONTHS[m[10]!]!, Number(m[11]), Number(m[12])];
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && y > 1880 && y < 2200) found.push(new Date(Date.UTC(y, mo - 1, d)));
  }
  return found;
}

export const BIRTH = /(?:date of birth|birth date|birthdate|\bdob\b|\bd\.o\.b|\bborn\b|data de nascimento|data nasc|\bnascid[oa] (?:em|a)|geburtsdatum|geb\.|geboren am|geboren|fecha de nacimiento|f\. nac|nacid[oa] el)/;
const RECORD_DATE = /(?:\bdate\b|\bdated\b|\bdata\b|\bdatum\b|\bfecha\b|consulta|consultation|\bvisit|visita|emitido|emitida|issued|report|relatorio|informe|befund|erstellt|untersuchung|\bam\b|\bem\b|\bel\b)/;

export const yearsBetween = (from: Date, to: Date) => {
  let age = to.getUTCFullYear() - from.getUTCFullYear();
  if (to.getUTCMonth() < from.getUTCMonth() || (to.getUTCMonth() === from.getUTCMonth() && to.getUTCDate() < from.getUTCDate())) age--;
  return age;
};

type Sentence = { text: string; norm: string };

const STATED_AGE = [
  /\b(?:age|aged|idade|alter|edad)\s*[:=]?\s*(\d{1,3})\b/,
  /\b(\d{1,3})\s*(?:-|\s)?(?:years?|yrs?|y)\s*(?:-|\s)?old\b/,
  /\b(\d{1,3})\s*anos de (?:idade|edad)\b/,
  /\b(\d{1,3})\s*jahre alt\b/,
  /\b(\d{1,3})\s*-?\s*jahrige\w*/,
  /\b(?:doente|utente|paciente|mulher|homem|senhora|senhor|mujer|hombre|varon|patient|patientin|woman|man|male|female|sexo \w+)\s*(?:de|com|con|of|aged|,)?\s*(\d{1,3})\s*(?:anos|years|jahre|a)\b/,
];

/** The patient's age: written, or from a date of birth and the record's date (else `today`). */
export function patientAge(lines: Sentence[], today: Date): { age: number; quote: string } | undefined {
  for (const { text, norm } of lines) {
    if (BIRTH.test(norm)) continue;
    for (const pattern of STATED_AGE) {
      const m = norm.match(pattern);
      if (m && Number(m[1]) < 125) return { age: Number(m[1]), quote: text };
    }
  }
  const birthLine = lines.find((l) => BIRTH.test(l.norm) && datesIn(l.norm.slice(l.norm.search(BIRTH))).length > 0);
  if (!birthLine) return undefined;
  const born = datesIn(birthLine.norm.slice(birthLine.norm.search(BIRTH)))[0]!;
  // The record's date: a dated line (report, visit) or else the latest date written, never after today.
  const dated = (labelled: boolean) =>
    lines
      .filter((l) => l !== birthLine && !BIRTH.test(l.norm) && (!labelled || RECORD_DATE.test(l.norm)))
      .flatMap((l) => datesIn(l.norm).map((date) => ({ date, line: l })))
      .filter(({ date }) => date > born && date <= today)
      .sort((a, b) => b.date.getTime() - a.date.getTime())[0];
  const recordDate = dated(true) ?? dated(false);
  const age = yearsBetween(born, recordDate?.date ?? today);
  return { age, quote: recordDate ? `${birthLine.text} ${recordDate.line.text}` : birthLine.text };
}

/** Lab values the screener knows under their local names (and OCR's usual confusions), with unit conversions. */
const ANALYTES: { id: string; names: RegExp; convert?: (value: number, unit: string) => number }[] = [
  {
    id: 'hba1c',
    names: /\b(?:hb\s?a[1li]\s?c|a[1li]c|hba[1li]|hemoglobina (?:glicada|glicosilada|glucosilada|a1c)|glyc(?:at|osyl)ed ha?emoglobin|glykiertes hamoglobin|glykohamoglobin)\b/,
    // IFCC units (mmol/mol) to NGSP (%), the unit criteria are written in.
    convert: (v, unit) => (/mmol/.test(unit) || v > 20 ? Math.round((v / 10.929 + 2.15) * 10) / 10 : v),
  },
  {
    id: 'egfr',
    names: /\b(?:e?gfr|e?tfge?|fge|ckd[- ]?epi|mdrd|(?:estimated )?glomerular filtration rate|taxa de filtr\w* glomerular(?: estimada)?|filtrado glomerular(?: estimado)?|tasa de filtr\w* glomerular(?: estimada)?|(?:geschatzte )?glomerulare filtrationsrate)\b/,
  },
  { id: 'bmi', names: /\b(?:bmi|imc|body mass index|indice de massa corporal|indice de masa corporal|korpermasseindex|body-mass-index)\b/ },
];

export const analyteIn = (criterion: string) => ANALYTES.find((a) => a.names.test(criterion));

/** The first value of the analyte the record gives, with its sentence; dates and method names are skipped. */
export function measuredValue(analyteId: string, lines: Sentence[]): { value: number; quote: string } | undefined {
  const analyte = ANALYTES.find((a) => a.id === analyteId)!;
  const names = new RegExp(analyte.names.source, 'g');
  for (const line of lines) {
    for (const m of line.norm.matchAll(names)) {
      const after = line.norm
        .slice(m.index! + m[0].length, m.index! + m[0].length + 60)
        .replace(DATE, ' ')
        .replace(/\b(?:ckd[- ]?epi|mdrd|dcct|ifcc|ngsp)(?:\s*\d{4})?\b/g, ' ');
      const found = after.match(new RegExp(`^[^\\d\\n]{0,25}?${NUMBER}\\s*(%|mmol\\/mol|ml\\/min)?`));
      if (!found) continue;
      const value = toNumber(found[1]!);
      return { value: analyte.convert ? analyte.convert(value, found[2] ?? '') : value, quote: line.text };
    }
  }
  return undefined;
}
