/**
 * Screening without AI: each criterion is settled only where the documents say so plainly. Ages and lab values
 * are compared as numbers; other criteria look for a sentence that mentions the criterion's own words, read as
 * present or (with a negation in it) absent. Anything else stays unclear for the researcher; nothing is inferred.
 */
import type { Criterion, CriterionAssessment, Verdict } from './criteria.js';
import { withConcepts } from './clinical-concepts.js';
import { normalise, sentences } from './text-normalise.js';

const NEGATIONS = /\b(no|not|denies|denied|without|never|negative|absent|absence|nao|sem|nega|nunca|ausencia|negativo|negativa|kein|keine|keinen|keiner|nicht|ohne|verneint|negativ|sin|niega)\b/;

/** Words that say nothing about what a criterion asks (four languages). */
const STOPWORDS = new Set(
  (
    'with without have has had that this from than into within during after before prior previous current currently known history diagnosis diagnosed ' +
    'patient patients subject subjects participant participants adult adults male female must should able will been being being other more less ' +
    'years year months month weeks days older younger least most equal under over between above below ' +
    'como para pelo pela pelos pelas sobre entre antes depois durante historia diagnostico doente doentes paciente pacientes utente utentes anos meses semanas dias ' +
    'maior menor igual menos mais atual actual previo previa conhecido conhecida deve devem superior inferior idade ' +
    'eine einer einem einen oder und mit ohne nach unter uber vorher aktuell bekannte bekannter diagnose patient patientin patienten jahre monate wochen tage ' +
    'mindestens hochstens alter alters sowie ' +
    'con sin una unos unas para por sobre entre antes despues durante historial conocido conocida paciente pacientes edad mayor menor igual menos ' +
    'anos meses semanas dias actual previo previa debe deben'
  ).split(/\s+/),
);

const NUMBER = String.raw`(\d{1,4}(?:[.,]\d+)?)`;
const toNumber = (s: string) => Number(s.replace(',', '.'));

type Bounds = { min?: number; minStrict?: boolean; max?: number; maxStrict?: boolean };

const within = (v: number, b: Bounds) => (b.min === undefined || (b.minStrict ? v > b.min : v >= b.min)) && (b.max === undefined || (b.maxStrict ? v < b.max : v <= b.max));

const AGE_WORDS = /\b(age|aged|idade|alter|alters|edad|years? old|anos|jahre|jahrige\w*)\b/;

/** The bounds a criterion puts on a number that follows `subject` (or on the age when `subject` is undefined). */
function boundsIn(text: string): Bounds | undefined {
  const range = text.match(new RegExp(`${NUMBER}\\s*%?\\s*(?:-|–|to|a|ate|bis|and|e|und|y)\\s*${NUMBER}`));
  if (range && /\b(between|entre|zwischen|aged|from|de|von)\b|-|–/.test(text)) return { min: toNumber(range[1]!), max: toNumber(range[2]!) };
  const min = text.match(
    new RegExp(`(>=|≥|>|at least|minimum|minimo|mindestens|al menos|over|older than|above|more than|greater than|mais de|superior a|uber|mayor(?:es)? de|mas de)\\s*(?:de\\s*)?${NUMBER}`),
  );
  const max = text.match(new RegExp(`(<=|≤|<|at most|maximum|maximo|hochstens|under|younger than|below|less than|lower than|menos de|inferior a|unter|menor(?:es)? de)\\s*(?:de\\s*)?${NUMBER}`));
  const orMore = text.match(new RegExp(`${NUMBER}\\s*(?:years?|anos|jahre)?\\s*(?:or older|or over|or more|or above|ou mais|oder alter|oder mehr|o mas)`));
  const bounds: Bounds = {};
  if (min) Object.assign(bounds, { min: toNumber(min[2]!), minStrict: !/^(>=|≥|at least|minimum|minimo|mindestens|al menos)$/.test(min[1]!) });
  else if (orMore) bounds.min = toNumber(orMore[1]!);
  if (max) Object.assign(bounds, { max: toNumber(max[2]!), maxStrict: !/^(<=|≤|at most|maximum|maximo|hochstens)$/.test(max[1]!) });
  return bounds.min === undefined && bounds.max === undefined ? undefined : bounds;
}

/** A sentence of the records as written (for quoting), normalised, and as word stems: worked out once a patient. */
type Line = { text: string; norm: string; stems: Set<string> };

/** The patient's age: stated, or from a date of birth. */
function patientAge(lines: Line[], today: Date): { age: number; quote: string } | undefined {
  for (const { text: line, norm: n } of lines) {
    const stated = n.match(/\b(?:age|idade|alter|edad)\s*[:=]?\s*(\d{1,3})\b/) ?? n.match(/\b(\d{1,3})[\s-]*(?:years?[\s-]*old|anos de idade|anos|jahre alt|jahre|jahrige\w*)\b/);
    if (stated) return { age: Number(stated[1]), quote: line };
    const born = n.match(
      /(?:date of birth|dob|born|data de nascimento|nascid[oa] (?:em|a)|geburtsdatum|geboren am|fecha de nacimiento|nacid[oa] el)\s*[:=]?\s*(?:(\d{1,2})[./-](\d{1,2})[./-](\d{4})|(\d{4})-(\d{2})-(\d{2}))/,
    );
    if (born) {
      const [y, m, d] = born[4] ? [born[4], born[5], born[6]].map(Number) : [born[3], born[2], born[1]].map(Number);
      let age = today.getUTCFullYear() - y!;
      if (today.getUTCMonth() + 1 < m! || (today.getUTCMonth() + 1 === m! && today.getUTCDate() < d!)) age--;
      return { age, quote: line };
    }
  }
  return undefined;
}

/** A measured value: the criterion's analyte ('hba1c', 'egfr', 'ldl') followed by a number in the documents. */
function measured(criterion: string, lines: Line[]): { bounds: Bounds; value: number; quote: string } | undefined {
  const m = criterion.match(
    /([a-z][a-z0-9]*(?:\s[a-z0-9]+)?)\s*(?:level|value|valor|wert|nivel)?\s*(?:of|de|von)?\s*(?:>=|≤|<=|≥|<|>|between|entre|zwischen|at least|at most|above|below|over|under|less than|more than|superior a|inferior a)/,
  );
  const bounds = boundsIn(criterion);
  if (!m || !bounds) return undefined;
  const words = m[1]!.split(' ').filter((w) => !STOPWORDS.has(w) && w.length > 1);
  const analyte = words.at(-1);
  if (!analyte) return undefined;
  // Scanned records read by OCR confuse 1 with l or i and 0 with o ('HbAic'): the analyte's name allows for it.
  const name = analyte
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/[1li]/g, '[1li]')
    .replace(/[0o]/g, '[0o]');
  const pattern = new RegExp(`\\b${name}\\b[^\\d\\n]{0,25}${NUMBER}`);
  for (const line of lines) {
    const found = line.norm.match(pattern);
    if (found) return { bounds, value: toNumber(found[1]!), quote: line.text };
  }
  return undefined;
}

const contentWords = (text: string) => [...new Set(text.split(/[^a-z0-9]+/).filter((w) => w.length >= 4 && !STOPWORDS.has(w) && !/^\d+$/.test(w)))];
/** Inflections differ across a criterion and a record ('diabetes' / 'diabetic', 'fumador' / 'fumadora'): compare stems. */
const stem = (w: string) => (w.startsWith('concept') ? w : w.slice(0, Math.max(4, Math.min(w.length, 6)))); // concept tokens (clinical-concepts.ts) stay whole

function mention(criterion: string, lines: Line[]): { quote: string; negated: boolean; complete: boolean } | undefined {
  const words = contentWords(criterion);
  if (words.length === 0) return undefined;
  const needed = words.length <= 2 ? 1 : Math.ceil(words.length * 0.6);
  let best: { quote: string; negated: boolean; score: number } | undefined;
  for (const line of lines) {
    const score = words.filter((w) => line.stems.has(stem(w))).length;
    if (score >= needed && (!best || score > best.score)) best = { quote: line.text, negated: NEGATIONS.test(line.norm), score };
  }
  return best && { quote: best.quote, negated: best.negated, complete: best.score === words.length };
}

export function screenOffline(criteria: Criterion[], documents: string, today = new Date()): CriterionAssessment[] {
  const lines: Line[] = sentences(documents).map((text) => {
    const norm = normalise(text);
    return {
      text,
      norm,
      stems: new Set(
        withConcepts(norm)
          .split(/[^a-z0-9]+/)
          .filter((w) => w.length >= 4)
          .map(stem),
      ),
    };
  });
  return criteria.map((c) => {
    const text = normalise(c.definition);
    const verdict = (v: Verdict, evidence: string): CriterionAssessment => ({ criterion_id: c.id, verdict: v, evidence });
    if (AGE_WORDS.test(text)) {
      const bounds = boundsIn(text);
      const age = bounds && patientAge(lines, today);
      if (bounds && age) return verdict(within(age.age, bounds) ? 'met' : 'not_met', age.quote);
    }
    const value = measured(text, lines);
    if (value) return verdict(within(value.value, value.bounds) ? 'met' : 'not_met', value.quote);
    const found = mention(withConcepts(text), lines);
    if (!found) return verdict('unclear', '');
    // A criterion worded as an absence ('no prior insulin') is met when the record says it is absent.
    const criterionNegated = NEGATIONS.test(text);
    const present = !found.negated;
    // Part of the criterion mentioned: its absence settles it ('denies smoking' → no active smoking), its
    // presence does not ('smoker' is not 'active smoker'), so that stays for the researcher, with the quote.
    if (present && !found.complete) return verdict('unclear', found.quote);
    return verdict(present !== criterionNegated ? 'met' : 'not_met', found.quote);
  });
}
