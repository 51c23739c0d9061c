/**
 * Numbers in criteria and records, on normalised text (lower case, no accents), in the four languages: the
 * bounds a criterion sets ('40 to 75', '40–75', 'between 40 and 75', '≥ 40 and ≤ 75', '18 anos ou mais'), lab
 * values under their local names with decimal commas and unit variants, dates, and a patient's age (written, or
 * from the date of birth and the record's own date).
 */

export type Bounds = { min?: number; minStrict?: boolean; max?: number; maxStrict?: boolean };

const NUMBER = String.raw`(\d{1,4}(?:[.,]\d+)?)`;
export const toNumber = (s: string) => Number(s.replace(',', '.'));

export const within = (v: number, b: Bounds) =>
  (b.min === undefined || (b.minStrict ? v > b.min : v >= b.min)) && (b.max === undefined || (b.maxStrict ? v < b.max : v <= b.max));

const UNIT = String.raw`\s*(?:%|years?|anos|jahre|ml\/min(?:\/1[.,]73\s*m(?:2|²)?)?|mmol\/mol|mg\/dl|mg\/g|mmhg|pg\/ml|cells\/(?:µl|ul|mm3)|\/(?:µl|ul))?\s*`;
const RANGE_JOIN = String.raw`(?:-|–|—|to|a|ate|bis|hasta|and|e|und|y)`;
const MIN_WORDS = String.raw`>=|≥|=>|>|at least|minimum|minimo|mindestens|al menos|as minimo|no minimo|over|older than|above|more than|greater than|mais de|superior a|acima de|uber|mayor(?:es)? de|maior(?:es)? de|mas de|a partir de|ab|from`;
const MAX_WORDS = String.raw`<=|≤|=<|<|at most|maximum|maximo|hochstens|no more than|not older than|up to|until|ate|bis|hasta|under|younger than|below|less than|lower than|menos de|inferior a|abaixo de|unter|menor(?:es)? de|no maximo`;
const INCLUSIVE =
  /^(>=|≥|=>|<=|≤|=<|at least|minimum|minimo|mindestens|al menos|as minimo|no minimo|at most|maximum|maximo|hochstens|no more than|not older than|up to|until|ate|bis|hasta|no maximo|mayor(?:es)? de|maior(?:es)? de|a partir de|ab|from)$/;

/** '18 years of age or older', '18 anos de idade ou mais'. */
const OF_AGE = String.raw`(?:(?:of age|de idade|de edad)\s*)?`;

/** The bounds a criterion puts on a number (units removed first: '1.73 m²' is not a bound). */
/**
 * A criterion without the words that make a limit open-ended ('65 years or older', '18 anos ou mais'), so an 'or'
 * left in it joins alternatives. Only after a number, and never before one ('75 or under 75 with a stroke'), nor
 * German 'oder Alter ≥ 50', which is another age.
 */
export function withoutOpenEnds(text: string): string {
  return text.replace(
    new RegExp(
      `${NUMBER}${UNIT}${OF_AGE}(?:or older|or over|or more|or above|or higher|or greater|or younger|or less|or under|or below|ou mais|ou superior|ou menos|ou inferior|o mas|o mayor|o menos|o superior|oder alter|oder mehr|oder hoher|oder daruber|oder junger|oder weniger)(?![a-z])(?!\\s*(?:de\\s+|than\\s+|als\\s+|que\\s+)?[<>=≥≤\\d])`,
      'g',
    ),
    '$1 ',
  );
}

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
  // A word ('over') must not end another ('Rover'); a sign may follow a word directly ('Age>18', 'Age≥ 40years').
  const min = text.match(new RegExp(`(?:(?<![a-z])|(?=[<>=≥≤]))(${MIN_WORDS})\\s*(?:de\\s*|of\\s*)?${NUMBER}`));
  const max = text.match(new RegExp(`(?:(?<![a-z])|(?=[<>=≥≤]))(${MAX_WORDS})\\s*(?:de\\s*|of\\s*)?${NUMBER}`));
  const orMore = text.match(
    new RegExp(
      `${NUMBER}${UNIT}${OF_AGE}(?:\\+|or older|or over|or more|or above|or higher|or greater|and older|and over|and above|ou mais|ou superior|o mas|o mayor|o superior|oder alter|oder mehr|oder hoher|oder daruber|und alter|und mehr)`,
    ),
  );
  const orLess = text.match(
    new RegExp(`${NUMBER}${UNIT}${OF_AGE}(?:or younger|or less|or under|or below|and younger|ou menos|ou inferior|o menos|oder junger|oder weniger)`),
  );
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

export const BIRTH =
  /(?:date of birth|birth date|birthdate|\bdob\b|\bd\.o\.b|\bborn\b|data de nascimento|data nasc|\bnascid[oa] (?:em|a)|geburtsdatum|geb\.|geboren am|geboren|fecha de nacimiento|f\. nac|nacid[oa] el)/;
const RECORD_DATE =
  /(?:\bdate\b|\bdated\b|\bdata\b|\bdatum\b|\bfecha\b|consulta|consultation|\bvisit|visita|emitido|emitida|issued|report|relatorio|informe|befund|erstellt|untersuchung|\bnota\b|internamento|\bletter\b|brief\b|summary|resumo|historia|\bam\b|\bem\b|\bel\b)/;

export const yearsBetween = (from: Date, to: Date) => {
  let age = to.getUTCFullYear() - from.getUTCFullYear();
  if (to.getUTCMonth() < from.getUTCMonth() || (to.getUTCMonth() === from.getUTCMonth() && to.getUTCDate() < from.getUTCDate())) age--;
  return age;
};

type Sentence = { text: string; norm: string };

const RELATIVE =
  /(?<![a-z])(?:fh|family history|historia familiar|antecedentes familiares|familienanamnese|familiar\w*|brothers?|sisters?|mother|father|parents?|sons?|daughters?|children|child|kids?|wife|husband|partner|spouse|siblings?|grand(?:mother|father|daughter|son|child|children)|uncle|aunt|cousin|irmaos?|irmas?|mae|pai|pais|filhos?|filhas?|netos?|netas?|avo|tio|tia|marido|esposa|esposo|companheir[oa]|hermanos?|hermanas?|madre|padre|padres|hijos?|hijas?|nietos?|nietas?|abuel[oa]s?|pareja|bruder|schwester\w*|mutter|vater|eltern|sohn|sohne|tochter|kind|kinder|enkel\w*|geschwister|ehefrau|ehemann|partner\w*|onkel|tante)(?![a-z])/;
/** Whether an age found at `index` (ending at `end`) is said of a relative: one named before it (back to a ';'), or right after it. */
function ofRelative(norm: string, index: number, end: number): boolean {
  const before = norm.slice(0, index);
  const clause = before.slice(before.lastIndexOf(';') + 1);
  const after = norm.slice(end).match(/^[\s,:-]*(?:[a-z]+[\s-]+)?([a-z]+)(?:['’]s\b)?/)?.[0] ?? '';
  // 'her 12-year-old boy', 'a 60-year-old man's wife': a possessive makes it someone else's.
  // (English only: 'Ihre Patientin', 'su paciente', 'a sua doente' are the patient, addressed to their doctor.)
  const possessed = /(?<![a-z])(?:her|his|their)\s+(?:\w+\s+)?$/.test(before) || /['’]s\b/.test(after);
  return possessed || RELATIVE.test(clause) || RELATIVE.test(after) || OTHER_PERSON.test(clause) || OTHER_PERSON.test(after);
}

/** People around a patient, not family, whose age a record may give ('a 35-year-old donor', 'Pflegekraft, 30 Jahre'). */
const OTHER_PERSON =
  /(?<![a-z])(?:donors?|friends?|interpreter|roommate|flatmate|neighbou?rs?|nurses?|carers?|caregivers?|caretakers?|step(?:father|mother|son|daughter)|companion|visitor|dador[a]?|doador[a]?|amig[oa]s?|vizinh[oa]s?|enfermeir[oa]s?|cuidador[a]?|interprete|acompanhante|donante|vecin[oa]s?|enfermer[oa]s?|acompanante|spender\w*|freund\w*|nachbar\w*|pflege\w*|betreuer\w*|dolmetscher\w*|begleit\w*)(?![a-z])/;

const STATED_AGE = [
  // Not an age at some event ('diagnosed aged 9', 'at age 40').
  // Nor an age of something else ('menarche age 12', 'gestational age 12 weeks', 'bone age 9').
  /(?<!(?:diagnosed|diagnosticad[oa]|at|since|when|from|until|com|aos|mit|con|a los|desde|menarche|menarca|menarquia|gestational|gestacional|bone|dental|mental|corrected) )\b(?:age|aged|idade|alter|edad)\s*[:=]?\s*(\d{1,3})\b(?!\s*(?:weeks?|semanas?|wochen|ssw|months?|meses|monate?n?|days?|dias|tage))/,
  /(?<!(?:at|since|when|from|until|aos|a los|desde|com|con|mit|was|were) )\b(\d{1,3})\s*(?:-|\s)?(?:years?|yrs?|y)\s*(?:-|\s)?old\b/,
  // '44 yo man', 'a 44 y/o woman', '44 y.o. female': only where a person or the sentence's end follows ('a los 20
  // yo empecé' is Spanish for 'at 20 I began').
  /(?<!(?:at|since|when|from|until|aos|a los|con|desde|mit|com|daughter|son|mother|father|brother|sister|child|filha|filho|mae|pai|hija|hijo|madre|padre|tochter|sohn|mutter|vater|kind)\s+)\b(\d{1,3})\s*(?:yo|y\/o|y\.o\.?)(?=\s*(?:$|[,.;)]|(?:old\s+)?(?:man|woman|male|female|patient|gentleman|lady|boy|girl|m|f|white|black|african|caucasian|hispanic|asian|with|who|presents|presenting|presented|admitted)\b))/,
  /\b(\d{1,3})\s*anos de (?:idade|edad)\b/,
  /\b(\d{1,3})\s*jahre a[l1]t\b/, // 'a1t': a scan's l read as 1
  /\b(\d{1,3})\s*-?\s*jahrige\w*/,
  /\b(?:doente|utente|paciente|mulher|homem|senhora|senhor|mujer|hombre|varon|patient|patientin|woman|man|male|female|sexo \w+)\s*(?:de|com|con|of|aged|,)?\s*(\d{1,3})\s*(?:anos|years|jahre|a)\b/,
  // An age alone between commas, after the name: 'José Pires, 69 anos, sexo masculino', 'Klaus Kessler, 52 J.,'.
  /(?:^|[:,·|]\s*)(\d{1,3})\s*(?:anos|years|yrs|jahre|j\.?|a\.?)\s*(?:[,;·|]|\.?$)/,
];

/** The patient's age: written, or from a date of birth and the record's date (else `today`). */
export function patientAge(lines: Sentence[], today: Date): { age: number; quote: string } | undefined {
  // Every age the record gives the patient: they must agree (a year apart at most, a birthday between two
  // letters), else one of them is someone else's (a donor, a friend) and the record does not say which.
  const stated: { age: number; quote: string }[] = [];
  for (const { text, norm } of lines) {
    if (BIRTH.test(norm)) continue;
    for (const pattern of STATED_AGE) {
      const m = norm.match(pattern);
      // An age beside a relative or a family history ('FH: brother had bowel cancer aged 70', 'her 40-year-old son')
      // is theirs.
      if (m && ofRelative(norm, m.index!, m.index! + m[0].length)) continue;
      if (m && Number(m[1]) < 125) {
        stated.push({ age: Number(m[1]), quote: text });
        break;
      }
    }
  }
  const birthLine = lines.find((l) => BIRTH.test(l.norm) && datesIn(l.norm.slice(l.norm.search(BIRTH))).length > 0);
  let fromBirth: { age: number; quote: string } | undefined;
  if (birthLine) {
    const born = datesIn(birthLine.norm.slice(birthLine.norm.search(BIRTH)))[0]!;
    const dated = recordDate(lines, today, born);
    fromBirth = { age: yearsBetween(born, dated?.date ?? today), quote: dated ? `${birthLine.text} ${dated.line.text}` : birthLine.text };
  }
  const all = [...stated, ...(fromBirth ? [fromBirth] : [])];
  if (all.length === 0) return undefined;
  const ages = all.map((a) => a.age);
  if (Math.max(...ages) - Math.min(...ages) > 1) return undefined;
  return stated[0] ?? fromBirth;
}

const MALE_WORD = /^(?:m|man|male|gentleman|boy|homem|senhor|masculino|hombre|varon|masculino|mann|mannlich|herr|patient)$/;
const FEMALE_WORD = /^(?:f|woman|female|lady|girl|mulher|senhora|feminino|mujer|femenino|frau|weiblich|patientin)$/;
/** Where a record states the patient's sex: a field, or the word beside the stated age ('67-year-old man', '58 yo F', 'mulher de 58 anos'). */
const SEX_STATED = [
  /\b(?:sex|sexo|geschlecht|gender|genero)\s*[:=]?\s*(m|f|male|female|masculino|feminino|femenino|mannlich|weiblich)\b/,
  /\b(?:do|del)\s+sexo\s+(masculino|feminino|femenino)\b/,
  // Up to two describing words between ('60-year-old Spanish man', 'previously healthy woman'), never a phrase
  // about someone else ('a 63-year-old with a woman').
  /\b\d{1,3}[\s-]*(?:years?|yrs?|y)[\s-]*old[\s-]+(?:(?!(?:with|and|or|a|an|the|his|her|by|from|of|who|whose|in|on|at|for|to|accompanied|brought|seen|and)\b)[a-z]+[\s-]+){0,2}(man|male|gentleman|boy|woman|female|lady|girl)\b(?!['’]s\b)/,
  /\b\d{1,3}\s*(?:yo|y\/o|y\.o\.?)\s+(m|f|man|male|woman|female)\b/,
  /\b\d{1,3}[\s-]*jahrige[rn]?\s+(patientin|patient|frau|mann|herr)\b/,
  /\b(homem|mulher|senhor|senhora|hombre|mujer|varon|man|woman)\s*(?:de|com|con|of|aged|,)?\s*\d{1,3}\s*(?:anos|years|jahre)\b/,
];

/** The patient's sex where the record states it plainly, or undefined (not stated, or stated both ways). */
export function patientSex(lines: Sentence[]): { sex: 'male' | 'female'; quote: string } | undefined {
  let found: { sex: 'male' | 'female'; quote: string } | undefined;
  for (const { text, norm } of lines) {
    for (const pattern of SEX_STATED) {
      for (const m of norm.matchAll(new RegExp(pattern.source, 'g'))) {
        if (ofRelative(norm, m.index, m.index + m[0].length)) continue;
        const word = m[1]!;
        const sex = MALE_WORD.test(word) ? 'male' : FEMALE_WORD.test(word) ? 'female' : undefined;
        if (!sex) continue;
        if (found && found.sex !== sex) return undefined;
        found ??= { sex, quote: text };
      }
    }
  }
  return found;
}

const WEEKS = String.raw`(\d{1,2})(?:\s*\+\s*([0-6]))?`;
const WEEK_UNIT = String.raw`(?:weeks?|wks?|semanas?|wochen|ssw|schwangerschaftswoche)`;
/** Where a record states how far a pregnancy has gone ('12 weeks of gestation', 'IG 14+2 semanas', '14. SSW', 'born at 27 weeks'). */
const GESTATION_STATED = [
  new RegExp(String.raw`\b${WEEKS}\s*\.?\s*${WEEK_UNIT}\s*(?:of\s+|de\s+)?(?:gestation|pregnancy|gestacao|gestacion|gravidez|embarazo)\b`),
  new RegExp(
    String.raw`\b(?:gestational age|idade gestacional|edad gestacional|gestationsalter|ga|ig|eg)\s*[:=]?\s*(?:of\s+|de\s+)?${WEEKS}\s*(?:${WEEK_UNIT}|w|s)\b`,
  ),
  new RegExp(
    String.raw`\b(?:pregnant|pregnancy|gravida|gravidez|gestacao|embarazada|embarazo|gestacion|schwanger|schwangerschaft)\s*(?:,\s*|:\s*|de\s+|con\s+|at\s+|in der\s+|im\s+)?${WEEKS}\s*\.?\s*${WEEK_UNIT}`,
  ),
  new RegExp(String.raw`\b${WEEKS}\s*${WEEK_UNIT}\s+(?:pregnant|gravida|embarazada|schwanger)\b`),
  // '16+2 weeks', 'SSW: 16', 'Schwangerschaftswoche 16+2': days after the weeks, or the German week's name, say it is one.
  new RegExp(String.raw`\b(\d{1,2})\s*\+\s*([0-6])\s*${WEEK_UNIT}`),
  new RegExp(String.raw`\b(?:ssw|schwangerschaftswoche)\s*:?\s*${WEEKS}\b`),
  new RegExp(String.raw`\b${WEEKS}\s*\.?\s*(?:ssw|schwangerschaftswoche)\b`),
  new RegExp(String.raw`\b(?:born at|nascid[oa] as|nacid[oa] a las|geboren in der)\s*${WEEKS}\s*\.?\s*${WEEK_UNIT}`),
];

const NOT_THIS_PREGNANCY =
  /(?<![a-z])(?:delivered|delivery|previous|prior|history|miscarriage|abortion|aborto|parto|anterior|previa|vorherige\w*|fruhere\w*|fehlgeburt|entbindung|planned|plan|next|offered|scheduled|will|should|between|prevista|previsto|proxima|proximo|planeada|planeado|programad[oa]|siguiente|geplant|nachste\w*|zwischen|entre)(?![a-z])/;

/** The gestational age the record states, in weeks, or undefined when it states none or two that differ. */
export function gestationalWeeks(lines: Sentence[]): { weeks: number; quote: string } | undefined {
  let found: { weeks: number; quote: string } | undefined;
  for (const { text, norm } of lines) {
    // A pregnancy before this one, or a plan ('delivered at 38 weeks in 2019', 'next visit at 20 weeks') is not now.
    if (NOT_THIS_PREGNANCY.test(norm)) continue;
    for (const pattern of GESTATION_STATED) {
      const m = norm.match(pattern);
      if (!m || ofRelative(norm, m.index!, m.index! + m[0].length)) continue;
      const weeks = Number(m[1]) + Number(m[2] ?? 0) / 7;
      if (weeks < 1 || weeks > 45) continue;
      if (found && Math.floor(found.weeks) !== Math.floor(weeks)) return undefined;
      found ??= { weeks, quote: text };
    }
  }
  return found;
}

/**
 * The record's own date: the latest date on a dated line (report, visit, letter) or else the latest date written,
 * never after `today` nor before `after`; dates of birth are not the record's.
 */
export function recordDate<S extends Sentence>(lines: S[], today: Date, after?: Date): { date: Date; line: S } | undefined {
  const dated = (labelled: boolean) =>
    lines
      .filter((l) => !BIRTH.test(l.norm) && (!labelled || RECORD_DATE.test(l.norm)))
      .flatMap((l) => datesIn(l.norm).map((date) => ({ date, line: l })))
      .filter(({ date }) => (!after || date > after) && date <= today)
      .sort((a, b) => b.date.getTime() - a.date.getTime())[0];
  return dated(true) ?? dated(false);
}

/**
 * Measurements the screener knows under their local names (and a scan's usual confusions), four languages.
 * `names` are what a criterion and a record call it; `recordNames` what only a record does (a blood pressure
 * 'PA 118/72' gives the systolic one). A value is read after its name unless `before` ('35 pack-years'); `unit`
 * is the unit it must carry (an ejection fraction's '%', not the litres beside it); `pair` which number of an
 * 'a/b' pair it is.
 */
type Analyte = {
  id: string;
  names: RegExp;
  recordNames?: RegExp;
  before?: boolean;
  unit?: string;
  pair?: 0 | 1;
  /** Thousands may be grouped ('1 250', '1.250 pg/mL'): no decimals of this measure have three digits. */
  grouped?: boolean;
  convert?: (value: number, unit: string) => number;
};

const BLOOD_PRESSURE = /\b(?:blood pressure|bp|b\.p\.|pa|ta|tensao arterial|pressao arterial|presion arterial|tension arterial|rr|blutdruck)\b/;

const ANALYTES: Analyte[] = [
  {
    id: 'hba1c',
    // A scan's OCR reads the '1' of 'HbA1c' as l, I or t ('HbAtc'): after 'Hb' nothing else is meant.
    names:
      /\b(?:hb\s?a[1lit]\s?c|a[1li]c|hba[1li]|hemoglobina (?:glicada|glicosilada|glucosilada|a1c)|glyc(?:at|osyl)ed ha?emoglobin|glykiertes hamoglobin|glykohamoglobin)\b/,
    // IFCC units (mmol/mol) to NGSP (%), the unit criteria are written in.
    convert: (v, unit) => (/mmol/.test(unit) || v > 20 ? Math.round((v / 10.929 + 2.15) * 10) / 10 : v),
  },
  {
    id: 'egfr',
    names:
      /\b(?:e?gfr|e?tfge?|fge|fg estimado|ckd[- ]?epi|mdrd|(?:estimated )?glomerular filtration rate|taxa de filtr\w* glomerular(?: estimada)?|filtrado glomerular(?: estimado)?|tasa de filtr\w* glomerular(?: estimada)?|(?:geschatzte )?glomerulare filtrationsrate)\b/,
  },
  { id: 'bmi', names: /\b(?:bmi|imc|body mass index|indice de massa corporal|indice de masa corporal|korpermasseindex|body-mass-index)\b/ },
  {
    id: 'lvef',
    names:
      /\b(?:lv-?\s?ef|ef|feve|fevi|fej|(?:left ventricular )?ejection fraction|fracao de ejecao(?: do ventriculo esquerdo)?|fraccion de eyeccion(?: del ventriculo izquierdo)?|(?:linksventrikulare )?ejektionsfraktion)\b/,
    unit: '%',
  },
  {
    id: 'ntprobnp',
    names: /\b(?:nt-?\s?pro-?\s?bnp|n-terminal pro-?b-type natriuretic peptide)\b/,
    grouped: true,
    convert: (v, unit) => (/ng\/ml/.test(unit) ? v * 1000 : v),
  },
  // FEV1 as a percentage of predicted; the FEV1/FVC ratio is another measure.
  { id: 'fev1', names: /\b(?:fev\s?[1l]|vef\s?1|vems)\b(?!\s*\/\s*(?:f?vc|cvf?))/, unit: '%' },
  {
    id: 'sbp',
    names:
      /\b(?:systolic (?:blood )?pressure|systolic bp|sbp|pressao arterial sistolica|presion arterial sistolica|tension arterial sistolica|systolischer blutdruck|systolischer druck)\b/,
    recordNames: BLOOD_PRESSURE,
    pair: 0,
  },
  {
    id: 'dbp',
    names:
      /\b(?:diastolic (?:blood )?pressure|diastolic bp|dbp|pressao arterial diastolica|presion arterial diastolica|tension arterial diastolica|diastolischer blutdruck|diastolischer druck)\b/,
    recordNames: BLOOD_PRESSURE,
    pair: 1,
  },
  {
    id: 'uacr',
    names:
      /\b(?:urine albumin[- ]to[- ]creatinine ratio|albumin[- ]to[- ]creatinine ratio|albumin\/creatinine ratio|u?acr|racu?|razao albumina[/-]creatinina|relacao albumina[/-]creatinina|cociente albumina[/-]creatinina(?: en orina)?|indice albumina[/-]creatinina|albumin[/-]kreatinin[- ]quotient|albumin[/-]kreatinin[- ]ratio)\b/,
    // mg/mmol to mg/g, the unit criteria are usually written in.
    convert: (v, unit) => (/mg\/mmol/.test(unit) ? Math.round(v * 8.84) : v),
  },
  {
    id: 'crcl',
    names:
      /\b(?:creatinine clearance|crcl|clcr|cl ?cr|aclaramiento de creatinina|depuracion de creatinina|clearance da creatinina|clearance de creatinina|depuracao da creatinina|kreatinin-?clearance)\b/,
  },
  {
    id: 'eosinophils',
    names: /\b(?:(?:blood )?eosinophils?(?: count)?|eosinofilos|eosinophile|eosinophilen|eos)\b/,
    // Counts given per litre (0,34 G/l, 0.30 x10^9/L) are read per µL, the unit criteria use.
    convert: (v, unit) => (/g\/l|10\^?9/.test(unit) || (v < 5 && !/µl|ul/.test(unit)) ? Math.round(v * 1000) : v),
  },
  { id: 'cha2ds2vasc', names: /\b(?:cha2ds2-?\s?vasc|chads2-?vasc)(?:-score| score)?\b/ },
  { id: 'hasbled', names: /\bhas-?bled(?:-score| score)?\b/ },
  {
    id: 'packyears',
    names: /(?<![a-z])(?:pack[- ]?years?|paquetes?[- /]?anos?|paq[- /]?ano|packungsjahre?n?|unidades maco[- /]ano|macos?[- /]ano|carga tabagica)(?![a-z])/,
    // A number then its unit: '35 paquetes-año', 'carga tabágica de 50 UMA', '40 py'.
    recordNames:
      /(?<![a-z])(?:pack[- ]?years?|paquetes?[- /]?anos?|paq[- /]?ano|packungsjahre?n?|unidades maco[- /]ano|macos?[- /]ano|uma|upa|py|p\/y|pj)(?![a-z])/,
    before: true,
  },
];

export const analyteIn = (criterion: string) => ANALYTES.find((a) => a.names.test(criterion));

const GROUPED = String.raw`(\d{1,3}(?:[ .]\d{3})+(?![.,]?\d)|\d{1,6}(?:[.,]\d+)?)`;
const UNITS = String.raw`(%|mmol\/mol|mg\/mmol|mg\/g|ml\/min|pg\/ml|ng\/l|ng\/ml|mmhg|g\/l|x\s?10\^?9\/l|cells\/(?:µl|ul)|\/(?:µl|ul))?`;

/** An analyte's patterns, compiled once: screening reads every sentence of every patient with them. */
const compiled = new Map<string, { before?: RegExp; names: { names: RegExp; pair?: 0 | 1 }[]; valued: RegExp }>();
function patternsOf(analyte: Analyte) {
  let patterns = compiled.get(analyte.id);
  if (!patterns) {
    const number = analyte.grouped ? GROUPED : NUMBER;
    patterns = {
      before: analyte.before ? new RegExp(`${NUMBER}\\s*-?\\s*(?:${analyte.recordNames!.source})`, 'g') : undefined,
      names: [
        { names: new RegExp(analyte.names.source, 'g') },
        ...(analyte.recordNames ? [{ names: new RegExp(analyte.recordNames.source, 'g'), pair: analyte.pair }] : []),
      ],
      valued: analyte.unit
        ? new RegExp(`^[^\\n]{0,40}?${number}\\s*(${analyte.unit.replace(/[/%]/g, (c) => `\\${c}`)})`)
        : new RegExp(`^[^\\d\\n]{0,25}?${number}\\s*${UNITS}`),
    };
    compiled.set(analyte.id, patterns);
  }
  return patterns;
}

const NOT_A_VALUE_BEFORE =
  /(?<![a-z])(?:in|em|en|im|within|dentro de|ha|hace|vor|every|cada|alle|last|ultim[oa]s?|letzten|next|proxim[oa]|nachste|stage|estadio|stadium|grade|grau|grado|class|classe|clase|klasse)\s*\(?\s*$/;
const NOT_A_VALUE_AFTER =
  /^\s*(?:days?|weeks?|months?|years?|hours?|dias?|semanas?|meses|anos|horas|tagen?|wochen|monaten?|jahren?|stunden|tubes?|tubos|results?|resultados|ergebnisse|times|vezes|veces|mal)\b/;

/** Every value of the analyte the record gives, with its sentence and the latest date that sentence carries. */
function valuesOf(analyte: Analyte, lines: Sentence[]): { value: number; quote: string; date?: Date }[] {
  const found: { value: number; quote: string; date?: Date }[] = [];
  const patterns = patternsOf(analyte);
  const otherNames = new RegExp(`\\(\\s*(?:${analyte.names.source})\\s*\\)`, 'g');
  const read = (raw: string, unit: string) => {
    const value = analyte.grouped ? Number(raw.replace(/[ .](?=\d{3}\b)/g, '').replace(',', '.')) : toNumber(raw);
    return analyte.convert ? analyte.convert(value, unit) : value;
  };
  for (const line of lines) {
    let date: Date | undefined;
    const push = (value: number) => {
      const dates = datesIn(line.norm);
      if (dates.length) date ??= new Date(Math.max(...dates.map((d) => d.getTime())));
      found.push({ value, quote: line.text, date });
    };
    if (patterns.before) {
      for (const m of line.norm.matchAll(patterns.before)) push(toNumber(m[1]!));
      continue;
    }
    for (const { names, pair } of patterns.names) {
      for (const m of line.norm.matchAll(names)) {
        // An equation's year is no value: 'eGFR 41 (CKD-EPI 2021)' is 41, never 2021.
        if (/^(?:ckd[- ]?epi|mdrd)$/.test(m[0]) && /^[\s,)]*(?:19|20)\d{2}\b/.test(line.norm.slice(m.index! + m[0].length))) continue;
        const after = line.norm
          .slice(m.index! + m[0].length, m.index! + m[0].length + 60)
          .replace(DATE, ' ')
          // The analyte's other name in parentheses is no value: 'Hemoglobina glicada (HbA1c): 8,2 %' is 8.2, not 1.
          .replace(otherNames, ' ')
          .replace(/\b(?:ckd[- ]?epi|mdrd|dcct|ifcc|ngsp)(?:[\s,)]*(?:19|20)\d{2}\b)?/g, ' ');
        if (pair !== undefined) {
          // The first pair within reach: 'Tensão arterial no consultório (média de 2 medições): 140/86'.
          const bp = after.match(/^[^\n]{0,45}?(?<![\d.,])(\d{2,3})\s*\/\s*(\d{2,3})\b/);
          if (bp) push(Number(bp[pair + 1]));
          continue;
        }
        const valued = after.match(patterns.valued);
        // 'Repeat eGFR in 2 weeks', 'HbA1c não realizada há 6 meses', 'eGFR stage 3', 'colhida em 2 tubos': a time,
        // a stage or a count, no value of the measure.
        const prefix = valued ? valued[0].slice(0, valued[0].indexOf(valued[1]!)) : '';
        if (valued && !analyte.unit && (NOT_A_VALUE_BEFORE.test(prefix) || (!valued[2] && NOT_A_VALUE_AFTER.test(after.slice(valued[0].length))))) continue;
        if (valued) push(read(valued[1]!, valued[2] ?? ''));
      }
    }
  }
  return found;
}

/**
 * The analyte's value in the record, with its sentence: the latest dated one where the record gives several
 * with dates, else the first; dates and method names are never read as values.
 */
/**
 * How the record's values of a measure fall about a limit: all on one side (`one`); on both, with the latest date
 * saying which holds now (`latest`: every value dated, those of the latest date all on one side); or on both with
 * nothing to tell them apart (`open`: an undated 'today' beside a dated one, two values of one day, one
 * sentence's trend '25 (03/2026) → 45 (10/2026)'), for the coordinator to weigh.
 */
export function sidesOf(analyteId: string, lines: Sentence[], holds: (value: number) => boolean): 'one' | 'latest' | 'open' {
  const values = valuesOf(ANALYTES.find((a) => a.id === analyteId)!, lines);
  if (new Set(values.map((v) => holds(v.value))).size <= 1) return 'one';
  if (values.some((v) => !v.date)) return 'open';
  const latest = Math.max(...values.map((v) => v.date!.getTime()));
  return new Set(values.filter((v) => v.date!.getTime() === latest).map((v) => holds(v.value))).size === 1 ? 'latest' : 'open';
}

export function measuredValue(analyteId: string, lines: Sentence[]): { value: number; quote: string } | undefined {
  const values = valuesOf(ANALYTES.find((a) => a.id === analyteId)!, lines);
  const dated = values.filter((v) => v.date).sort((a, b) => b.date!.getTime() - a.date!.getTime());
  const chosen = values.length > 1 && dated.length > 0 ? dated[0] : values[0];
  return chosen && { value: chosen.value, quote: chosen.quote };
}

const SPELLED: Record<string, number> = {};
[
  'one um uma ein eine einem einen uno una',
  'two dois duas zwei dos',
  'three tres drei',
  'four quatro vier cuatro',
  'five cinco funf',
  'six seis sechs',
  'seven sete sieben siete',
  'eight oito acht ocho',
  'nine nove neun nueve',
  'ten dez zehn diez',
  'eleven onze elf once',
  'twelve doze zwolf doce',
].forEach((names, i) => names.split(' ').forEach((n) => (SPELLED[n] = i + 1)));
const AMOUNT = `(\\d{1,3}|${Object.keys(SPELLED).join('|')})`;
const UNIT_DAYS: [RegExp, number][] = [
  [/^(?:days?|dias?|tagen?)$/, 1],
  [/^(?:weeks?|semanas?|wochen?)$/, 7],
  [/^(?:months?|meses|mes|monaten?|monate)$/, 30.44],
  [/^(?:years?|anos?|jahren?|jahre)$/, 365.25],
];
const PERIOD_UNIT = '(days?|dias?|tagen?|weeks?|semanas?|wochen?|months?|meses|mes|monaten?|monate|years?|anos?|jahren?|jahre)';
const toDays = (amount: string, unit: string) => (SPELLED[amount] ?? Number(amount)) * UNIT_DAYS.find(([u]) => u.test(unit))![1];

/**
 * A time window a criterion sets back from the record's date ('within the last 3 months', 'nos últimos 6 meses',
 * 'in den letzten drei Monaten', 'en las últimas 4 semanas'), in days, with the words that set it.
 */
export function windowIn(criterion: string): { days: number; words: string } | undefined {
  const m = criterion.match(
    new RegExp(
      `(?:(?:within|in|during|over)\\s+(?:the\\s+)?(?:last|past|previous|preceding|prior)|within|(?:nos|nas|durante os|durante as)\\s+(?:ultimos|ultimas)|(?:innerhalb\\s+)?(?:der|den)\\s+(?:letzten|vergangenen)|innerhalb(?:\\s+von)?|(?:en|durante)\\s+(?:los|las)\\s+(?:ultimos|ultimas)|(?:ha|hace)\\s+menos\\s+de|less than)\\s+${AMOUNT}\\s+${PERIOD_UNIT}(?![a-z])`,
    ),
  );
  return m ? { days: toDays(m[1]!, m[2]!), words: m[0] } : undefined;
}

/**
 * When a sentence dates what it tells: a full date, a month and year, a year, or a time ago ('3 weeks ago',
 * 'há 2 meses', 'vor 2 Monaten', 'hace 2 meses') from the record's date; as the earliest and latest day it can be.
 */
export function eventSpan(norm: string, recordOn: Date): { from: Date; to: Date } | undefined {
  const dates = datesIn(norm);
  if (dates.length) return { from: dates[0]!, to: dates[0]! };
  const ago = norm.match(new RegExp(`(?:(?:ha|hace|vor)\\s+${AMOUNT}\\s+${PERIOD_UNIT}|${AMOUNT}\\s+${PERIOD_UNIT}\\s+ago)(?![a-z])`));
  if (ago) {
    const days = ago[1] ? toDays(ago[1], ago[2]!) : toDays(ago[3]!, ago[4]!);
    const at = new Date(recordOn.getTime() - days * 86_400_000);
    return { from: at, to: at };
  }
  const monthYear = norm.match(new RegExp(`\\b(?:(\\d{1,2})[/.-]|${MONTH}\\s*(?:de\\s+)?)(\\d{4})\\b`));
  if (monthYear) {
    const month = monthYear[1] ? Number(monthYear[1]) : MONTHS[monthYear[2]!]!;
    const year = Number(monthYear[3]);
    if (month >= 1 && month <= 12) return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 0)) };
  }
  const year = norm.match(/(?<![\d.,/-])((?:19|20)\d{2})(?![\d]|[.,/-]\d|\s*(?:mg|ml|pg|g|kg|%))/);
  if (year) return { from: new Date(Date.UTC(Number(year[1]), 0, 1)), to: new Date(Date.UTC(Number(year[1]), 11, 31)) };
  return undefined;
}
