/**
 * Screening without AI: each criterion is settled only where the record's own sentences say so plainly, and a
 * criterion is unclear only when the record does not say. Ages and lab values are compared as numbers (age from
 * the date of birth when none is written); known concepts are read with what each sentence says of them
 * (present, negated, past, about someone else: negation-scope.ts), and a concept that excludes another (type 1
 * against type 2 diabetes) settles it. Other criteria look for a sentence with the criterion's own words. The
 * evidence is always one or two whole sentences of the record, never a file name (text-normalise.ts).
 */
import type { Criterion, CriterionAssessment, Verdict } from './criteria.js';
import { conceptKind, conceptOf, exclusiveWith, isConcept, withConcepts } from '../../clinical/concepts.js';
import {
  analyteIn,
  boundsIn,
  eventSpan,
  gestationalWeeks,
  measuredValue,
  patientAge,
  patientSex,
  recordDate,
  sidesOf,
  windowIn,
  within,
  withoutOpenEnds,
} from '../../clinical/record-numbers.js';
import { scopeWords, type ScopedWord, type Status } from '../../clinical/word-scope.js';
import { normalise, repairOcrDigits, sentences } from '../../clinical/record-text.js';

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

/** Words a criterion adds to a concept without changing what is asked ('current insulin use', 'active smoking'). */
const FILLER = new Set(
  (
    'use using used uses usage therapy treatment treated taking active ongoing status women woman participants ' +
    'uso utilizacao terapeutica tratamento tratado tratada ativo ativa atual atualmente vigente mulheres mulher ' +
    'gebrauch therapie behandlung behandelt aktiv aktuelle aktueller derzeit derzeitige bestehende frauen frau ' +
    'tratamiento tratado tratada activo activa actualmente vigente mujeres mujer ' +
    'recipient receptor empfanger ecg ekg electrocardiogram electrocardiograma elektrokardiogramm holter ambulatory monitoring monitorizacao monitorizacion ' +
    'mellitus confirmed documented confirmado confirmada documentado documentada gesichert nicht keine kein never nunca sem sin ohne denies ' +
    'diagnostico diagnostiziert diagnosticado diagnosticada'
  ).split(/\s+/),
);

const CURRENT =
  /\b(current|currently|active|ongoing|now|atual|actual|atualmente|actualmente|ativo|ativa|activo|activa|em curso|en curso|aktuell|aktuelle|aktiver|derzeit|derzeitig\w*|bestehend\w*|vigente)\b/;
const AGE_WORDS = /\b(age|aged|idade|alter|alters|edad|years? old|jahrige\w*)\b/;
const YEARS = /\b(years?|anos|jahre|adults?|adultos?|erwachsene)\b/;
const DURATION = /\b(since|for|duration|ha|seit|desde|durante|diagnos\w*|ago|dauer|duracao|duracion)\b/;

/** A sentence of the records as written (for quoting), normalised, and its words with their scope. */
type Line = { text: string; norm: string; scoped: ScopedWord[]; stems: Map<string, Status[]> };

const contentWords = (text: string) => [...new Set(text.split(/[^a-z0-9]+/).filter((w) => w.length >= 4 && !STOPWORDS.has(w) && !/^\d+$/.test(w)))];
/** Inflections differ across a criterion and a record ('diabetes' / 'diabetic', 'fumador' / 'fumadora'): compare stems. */
const stem = (w: string) => (isConcept(w) ? w : w.slice(0, Math.max(4, Math.min(w.length, 6))));

function readLine(text: string): Line {
  const norm = repairOcrDigits(normalise(text));
  const scoped = scopeWords(withConcepts(norm));
  const stems = new Map<string, Status[]>();
  for (const { word, status } of scoped) if (word.length >= 4) stems.set(stem(word), [...(stems.get(stem(word)) ?? []), status]);
  return { text, norm, scoped, stems };
}

/** What the record says of a concept: it holds, it does not, or it is named without settling it (`holds` undefined). */
type Finding = { holds: boolean | undefined; quote: string; line?: Line; concept?: string } | undefined;

/** The record read once for every criterion: its sentences, the patient's age and the record's own date. */
type Record_ = { lines: Line[]; age: { age: number; quote: string } | undefined; sex: { sex: 'male' | 'female'; quote: string } | undefined; recordOn: Date };

/** A sentence that dates what it says 'in' a year before the record's own ('in 2019'). */
const datedBefore = (norm: string, recordOn: Date) =>
  [...norm.matchAll(/\b(?:in|em|en|im)\s+((?:19|20)\d{2})\b/g)].some((m) => Number(m[1]) < recordOn.getUTCFullYear());

/** Words that say a state has ended, not only that it was once. */
const ENDED =
  /(?<![a-z])(?:former|formerly|ex|quit|quitted|stopped|discontinued|ceased|resolved|suspend\w*|suspens[oa]|interrompid[oa]|interrumpid[oa]|withdrawn|abstinent|deixou|parou|abandonou|antig[oa]|ex-\w+|ehemalig\w*|aufgehort|dejo|exfumador\w*|exfumadora|resolvid[oa]|resuelt[oa]|abgeklungen|abgesetzt|previously|previous)(?![a-z])/;

/** A medication list ('Medication:', 'Terapêutica habitual:', 'Dauermedikation:'), which names what is taken. */
const MEDICATION_LIST =
  /^(?:current |usual |regular )?(?:medication|medications|meds|medicines|drugs|medicacao|terapeutica|medicamentos|medikation|medikamente|dauermedikation|tratamiento|medicacion|hoja de tratamiento)\b[^:;.]{0,24}:/;

/** Whether the record says the concept holds for the patient, as the criterion asks it (now, or ever). */
function conceptFinding(concept: string, wantsEver: boolean, record: Record_, readRelated = true): Finding {
  let absent: Finding;
  let present: Finding;
  let denied: Finding;
  let pastState: Finding;
  for (const line of record.lines) {
    for (const status of line.stems.get(concept) ?? []) {
      if (status === 'other_person' || status === 'uncertain') continue;
      // A state dated in an earlier year than the record's ('an ectopic pregnancy in 2019') says nothing of now.
      if (status === 'present' && !wantsEver && conceptKind(concept) === 'state' && datedBefore(line.norm, record.recordOn))
        pastState ??= { holds: undefined, quote: line.text, line };
      else if (status === 'present' || (status === 'past' && wantsEver)) present ??= { holds: true, quote: line.text, line };
      // A state had once ('an ectopic pregnancy in 2019') says nothing of now: neither a pregnancy nor its absence.
      // One ended ('former smoker', 'quit', 'resolved') is absent now.
      else if (status === 'past' && conceptKind(concept) === 'state' && !ENDED.test(line.norm)) pastState ??= { holds: undefined, quote: line.text, line };
      else absent ??= { holds: false, quote: line.text, line };
      if (status === 'negated') denied ??= { holds: false, quote: line.text, line };
    }
  }
  // A state the record both asserts and denies ('Consulta de gestação' beside 'teste de gravidez negativo') is
  // for the coordinator to settle; a condition once had and now absent still counts as had.
  if (present && denied && conceptKind(concept) === 'state') return { holds: undefined, quote: `${present.quote} ${denied.quote}` };
  if (present) return present;
  // Dated once and ended elsewhere ('started in 2020; previously peritoneal dialysis') is still open; only a
  // denial ('pregnancy test today: negative') settles it.
  if (pastState && !denied) return pastState;
  if (absent || !readRelated) return absent ?? pastState;
  // Type 1 diabetes written plainly settles a criterion asking for type 2.
  for (const other of exclusiveWith(concept)) {
    const found = conceptFinding(other, true, record, false);
    if (found?.holds) return { holds: false, quote: found.quote };
  }
  const about = conceptOf(concept);
  // 'No oxygen therapy' says there is no long-term oxygen therapy; 'oxygen therapy' alone does not say it is.
  if (about?.within) {
    const broader = conceptFinding(about.within, wantsEver, record, false);
    if (broader) return { holds: broader.holds === false ? false : undefined, quote: broader.quote };
  }
  if (about?.notFromAge && record.age && record.age.age >= about.notFromAge) return { holds: false, quote: record.age.quote };
  // A list of what is taken now says nothing of what was taken before.
  if (about?.medicine && !wantsEver) {
    const list = record.lines.find((l) => MEDICATION_LIST.test(l.norm));
    if (list) return { holds: false, quote: list.text };
  }
  return undefined;
}

/**
 * A concept asked within a time window ('myocardial infarction within the last 3 months'): it holds when the
 * record dates it inside the window back from the record's date, not when it dates it before or says it never
 * happened; undated, it is left open.
 */
function windowFinding(concept: string, days: number, record: Record_): Finding {
  const start = new Date(record.recordOn.getTime() - days * 86_400_000);
  let outside: Finding;
  let open: Finding;
  let absent: Finding;
  for (const line of record.lines) {
    for (const status of line.stems.get(concept) ?? []) {
      if (status === 'other_person' || status === 'uncertain') continue;
      if (status === 'negated') {
        absent ??= { holds: false, quote: line.text };
        continue;
      }
      const span = eventSpan(line.norm, record.recordOn);
      if (span && span.from >= start && span.from <= record.recordOn) return { holds: true, quote: line.text, line };
      if (span && span.to < start) outside ??= { holds: false, quote: line.text };
      else open ??= { holds: undefined, quote: line.text };
    }
  }
  return open ?? outside ?? absent;
}

/** A criterion about known concepts: each concept read in the record, combined by the criterion's 'or' / 'and'. */
function conceptVerdict(criterion: string, record: Record_): { verdict: Verdict; quote: string } | undefined {
  const window = windowIn(criterion);
  const asked = window ? criterion.replace(window.words, ' ') : criterion;
  const scoped = scopeWords(withConcepts(asked));
  const concepts = scoped.filter((w) => isConcept(w.word));
  if (concepts.length === 0) return undefined;
  // The criterion's own wording: 'no prior insulin' asks for an absence; 'history of', 'prior' asks about ever.
  const negated = concepts.some((c) => c.status === 'negated');
  const asksCurrent = CURRENT.test(asked);
  const asked_ = [...new Set(concepts.map((c) => c.word))];
  const findings = asked_.map((concept): Finding => {
    const found = window
      ? windowFinding(concept, window.days, record)
      : conceptFinding(
          concept,
          !asksCurrent && (concepts.some((c) => c.word === concept && c.status === 'past') || conceptKind(concept) === 'condition'),
          record,
        );
    return found && { ...found, concept };
  });
  // Concepts listed ('stroke, TIA or haemorrhage') are alternatives; one qualifying another ('a biologic for
  // asthma') must both hold.
  const all = !/\b(or|ou|oder|o|nor|nem|ni)\b|,/.test(asked);
  const holding = findings.filter((f) => f?.holds === true);
  const failing = findings.filter((f) => f?.holds === false);
  let result: Finding;
  if (all) result = failing[0] ?? (holding.length === findings.length ? holding[0] : undefined);
  // Of a list of excluding conditions ('stroke, TIA or intracranial haemorrhage'), those the record denies settle
  // it when it names no other: records do not list every absent condition.
  else result = holding[0] ?? (failing.length > 0 && failing.length + findings.filter((f) => !f).length === findings.length ? failing[0] : undefined);
  if (!result) {
    const partial = holding[0] ?? failing[0] ?? findings.find((f) => f);
    return partial && { verdict: 'unclear', quote: partial.quote };
  }
  // Words the criterion adds beyond its concepts ('insulin allergy'): a mention of the concept alone does not
  // show them, its absence does. In a list ('mechanical valve or moderate-to-severe mitral stenosis') a word
  // belongs to the item it stands in.
  const concept = result.concept;
  const segments = withConcepts(asked).split(/[,;]|\s(?:or|ou|oder|o)\s/);
  const segment = (concept && segments.find((s) => s.includes(concept))) || asked;
  const extra = contentWords(
    scopeWords(segment)
      .filter((w) => !isConcept(w.word))
      .map((w) => w.word)
      .join(' '),
  ).filter((w) => !FILLER.has(w) && !CURRENT.test(w));
  // A mention that says them too ('paroxysmal non-valvular AF' for 'non-valvular atrial fibrillation') shows them.
  const says = (line: Line | undefined) => extra.every((w) => (line?.stems.get(stem(w)) ?? []).some((s) => s === 'present' || s === 'past'));
  if (result.holds && extra.length > 0 && !says(result.line)) {
    const holds = (l: Line) => (l.stems.get(concept ?? '') ?? []).some((s) => s === 'present' || (s === 'past' && conceptKind(concept ?? '') === 'condition'));
    const better = !window && concept ? record.lines.find((l) => holds(l) && says(l)) : undefined;
    if (!better) return { verdict: 'unclear', quote: result.quote };
    result = { holds: true, quote: better.text, line: better };
  }
  return { verdict: result.holds !== negated ? 'met' : 'not_met', quote: result.quote };
}

/** Any other criterion: the sentence sharing most of its words, read as present or (in a negation's scope) absent. */
function mention(criterion: string, lines: Line[], acronyms: string[] = []): { quote: string; negated: boolean; complete: boolean } | undefined {
  const words = contentWords(criterion);
  if (words.length === 0) return undefined;
  // A concept matches as a whole: 'HIV infection' is not any infection. The criterion's acronyms ('HIV', 'HCV')
  // that name no known concept must be in the sentence.
  const named = acronyms.filter((a) => new RegExp(`(?<![a-z0-9])${a}(?![a-z0-9])`).test(criterion));
  const needed = words.length <= 2 ? 1 : Math.ceil(words.length * 0.6);
  // The past is an absence only when the criterion asks about now ('active cancer', not 'history of cancer').
  const absent = (s: Status) => s === 'negated' || (s === 'past' && CURRENT.test(criterion));
  let best: { quote: string; negated: boolean; score: number } | undefined;
  for (const line of lines) {
    // A word said of someone else, or left open, is no mention of the patient.
    const about = (w: string) => (line.stems.get(stem(w)) ?? []).filter((s) => s !== 'other_person' && s !== 'uncertain');
    if (named.some((a) => !new RegExp(`(?<![a-z0-9])${a}(?![a-z0-9])`).test(line.norm))) continue;
    const matched = words.filter((w) => about(w).length > 0);
    const score = matched.length;
    const negated = matched.some((w) => about(w).some(absent));
    if (score >= needed && (!best || score > best.score)) best = { quote: line.text, negated, score };
  }
  return best && { quote: best.quote, negated: best.negated, complete: best.score === words.length };
}

/** Words written in capitals for emphasis ('OR', 'AND', 'NOT'), which are no acronyms. */
const CONNECTIVE = new Set(
  'or and not no nor with without of in on to at by for the an vs ou e nao sem com de do da em oder und nicht ohne mit y o ni sin con del'.split(' '),
);

/** What a record says instead of a number: a never-smoker has smoked no pack-years. */
const ZERO_WHEN_ABSENT: Record<string, string> = { packyears: 'conceptsmoking' };

type Assessed = { verdict: Verdict; quote: string };

/** One criterion, or one part of it, against the record; undefined when nothing in it can be looked for. */
function assess(asked: string, record: Record_, acronyms: string[] = []): Assessed | undefined {
  // 'Male or female, 40 years of age or older' asks the age of anyone.
  const text = asked.replace(EITHER_SEX, ' ').replace(/^[\s,;:]+|[\s,;:.]+$/g, '');
  const analyte = analyteIn(text);
  const concepts = /\bconcept/.test(withConcepts(text));
  // A gestational age is weeks of a pregnancy, never the patient's years: compared with the weeks the record states.
  if (GESTATION.test(text) && !GESTATION_CONDITION.test(text) && boundsIn(text)) {
    const bounds = boundsIn(text)!;
    const stated = gestationalWeeks(record.lines);
    return stated ? { verdict: within(stated.weeks, bounds) ? 'met' : 'not_met', quote: stated.quote } : { verdict: 'unclear', quote: '' };
  }
  if (!analyte && (AGE_WORDS.test(text) || (YEARS.test(text) && !concepts && !DURATION.test(text)))) {
    const age = ageOf(text, record);
    if (age) return ageCriterion(text, age, record);
  }
  if (analyte) {
    // The limits follow the measure's name ('HbA1c ≥ 7.5 %'); an age before it ('Adults 18 to 65 years with HbA1c
    // ≥ 7.5 %', 'Age 18 to 40 and BMI ≥ 35') is a part of its own, which must hold too.
    const at = Math.max(0, text.search(analyte.names));
    const before = text.slice(0, at);
    const asksAge = AGE_WORDS.test(before) || YEARS.test(before);
    const lab = assessMeasure(analyte, asksAge ? text.slice(at) : text, record);
    if (lab && asksAge && boundsIn(before)) return both(ageOf(before, record) ?? { verdict: 'unclear', quote: '' }, lab);
    if (lab) return lab;
  }
  const byConcept = conceptVerdict(text, record);
  // 'At least two COPD exacerbations', 'Type 2 diabetes for more than 10 years': the concept named is not the
  // number asked of it, so its mention settles nothing; its absence still does.
  if (byConcept?.verdict === 'met' && boundsIn(text) && !windowIn(text)) return { verdict: 'unclear', quote: byConcept.quote };
  if (byConcept) return byConcept;
  if (concepts) return { verdict: 'unclear', quote: '' };
  const found = mention(text, record.lines, acronyms);
  if (!found) return undefined;
  // A limit on a quantity the screener cannot measure ('Platelet count < 100,000/µL', 'more than two
  // exacerbations'): a sentence naming it is no value, so it settles nothing.
  if (boundsIn(text)) return { verdict: 'unclear', quote: found.quote };
  // A criterion worded as an absence ('no prior surgery') is met when the record says it is absent.
  const criterionNegated = scopeWords(text).some((w) => w.status === 'negated');
  const present = !found.negated;
  // Part of the criterion mentioned: its absence settles it, its presence does not, so that stays for the
  // researcher, with the quote.
  if (present && !found.complete) return { verdict: 'unclear', quote: found.quote };
  return { verdict: present !== criterionNegated ? 'met' : 'not_met', quote: found.quote };
}

/** Words an age criterion holds besides its age, its sex and known concepts, which ask nothing more of the patient. */
const AGE_CRITERION_WORDS =
  /^(?:aged?|ages|years?|yrs|old|older|younger|mayor(?:es)?|menor(?:es)?|maior(?:es)?|adults?|inclusive|both|either|sexes|gender|patients?|subjects?|participants?|persons?|people|individuals?|time|screening|signing|sign|consent|informed|form|inclusion|enrol+ment|randomi[sz]ation|visit|idade|anos|adultos?|ambos|sexos?|doentes?|utentes?|pacientes?|participantes?|individuos?|pessoas?|momento|rastreio|inclusao|consentimento|alter|alters|jahre|jahren|jahrige\w*|erwachsene\w*|beide\w*|geschlechts?|teilnehmer\w*|personen|zeitpunkt|einschluss|einwilligung|edad|sujetos?|personas?|cribado|inclusion|consentimiento)$/;
/** A sex a criterion asks for (men, 'Frauen', 'mujeres'), as opposed to both. */
const ONE_SEX_WORDS =
  /\b(?:men|males?|man|women|woman|females?|boys|girls|homens?|mulher(?:es)?|masculino|feminino|manner|mann|mannlich\w*|frauen|frau|weiblich\w*|hombres?|mujer(?:es)?|femenino|varon(?:es)?)\b/g;
const FEMALE_ASKED = /\b(?:women|woman|females?|girls|mulher(?:es)?|feminino|frauen|frau|weiblich\w*|mujer(?:es)?|femenino)\b/;

/** The patient's age against a text's limits, or undefined when it sets none. */
function ageOf(text: string, record: Record_): Assessed | undefined {
  const bounds = boundsIn(text);
  if (!bounds) return undefined;
  return record.age ? { verdict: within(record.age.age, bounds) ? 'met' : 'not_met', quote: record.age.quote } : { verdict: 'unclear', quote: '' };
}

/** A measurement against the limits a text sets for it; undefined when it sets none. */
function assessMeasure(analyte: NonNullable<ReturnType<typeof analyteIn>>, text: string, record: Record_): Assessed | undefined {
  const bounds = boundsIn(text.replace(analyte.names, ' '));
  if (!bounds) return undefined;
  let value = measuredValue(analyte.id, record.lines);
  const zeroWhen = ZERO_WHEN_ABSENT[analyte.id];
  if (!value && zeroWhen) {
    const found = conceptFinding(zeroWhen, true, record, false);
    if (found?.holds === false) value = { value: 0, quote: found.quote };
  }
  if (!value) return { verdict: 'unclear', quote: '' };
  // Values on both sides of the limit are for the coordinator to weigh when the criterion looks back in time
  // ('at screening or documented within the previous 12 months') or the record dates none of them; otherwise
  // the latest dated one is the patient's now.
  const sides = sidesOf(analyte.id, record.lines, (v) => within(v, bounds));
  if (sides === 'open' || (sides === 'latest' && (windowIn(text) || LOOKS_BACK.test(text)))) return { verdict: 'unclear', quote: value.quote };
  return { verdict: within(value.value, bounds) ? 'met' : 'not_met', quote: value.quote };
}

/**
 * A criterion that asks an age, maybe with a sex and conditions. Everything it asks must hold: the age, the sex
 * where it names one (as the record states it: a field or the word beside the age), and its conditions; one of
 * them failing settles it, and it is Met only when every part is settled, with nothing left that the screener
 * does not read ('with moderate-to-severe plaque psoriasis', 'of childbearing potential'). Ages joined by 'or', or
 * one per sex ('women aged 18 to 45 and men aged 18 to 60'), are left to the coordinator.
 */
function ageCriterion(text: string, age: Assessed, record: Record_): Assessed {
  const unclear = (quote = age.quote): Assessed => ({ verdict: 'unclear', quote });
  const joins = withoutOpenEnds(text);
  const ageWords = text.match(/\b(?:age|aged|ages|idade|alter|edad)\b/g) ?? [];
  const sexes = [...new Set((text.match(ONE_SEX_WORDS) ?? []).map((w) => (FEMALE_ASKED.test(w) ? 'female' : 'male')))];
  const rest = text.replace(ONE_SEX_WORDS, ' ');
  const scoped = scopeWords(withConcepts(rest));
  const unread = contentWords(withConcepts(rest)).filter((w) => !isConcept(w) && !FILLER.has(w) && !AGE_CRITERION_WORDS.test(w) && !/\d/.test(w));
  // A comma joins parts only when there is more than the age ('aged 18 to 70, inclusive' is one age).
  const parts = sexes.length > 0 || unread.length > 0 || scoped.some((w) => isConcept(w.word));
  if (OR_JOIN.test(joins) || (parts && /[,;]/.test(joins)) || ageWords.length > 1 || sexes.length > 1) return unclear();
  let result = age;
  if (sexes.length === 1)
    result = both(result, record.sex ? { verdict: record.sex.sex === sexes[0] ? 'met' : 'not_met', quote: record.sex.quote } : unclear(''));
  // 'with type 2 diabetes, not on insulin': only a part outside the criterion settles it.
  if (scoped.some((w) => w.status === 'negated')) return result.verdict === 'not_met' ? result : unclear();
  // The conditions are read without the age's words ('Adults aged 40 to 75 with type 2 diabetes').
  const conditions = withConcepts(rest).replace(
    /\b(?:adults?|aged?|ages|years?|yrs|old|older|younger|anos|jahre|jahrige\w*|edad|idade|alter|to|a|bis|and|e|und|y|between|entre|zwischen)\b|\b\d+(?:[.,]\d+)?\b|[<>≥≤=–]/g,
    ' ',
  );
  if (scoped.some((w) => isConcept(w.word))) result = both(result, conceptVerdict(conditions, record) ?? unclear(''));
  return result.verdict === 'met' && unread.length > 0 ? unclear(result.quote) : result;
}

/** Two parts that must both hold: one not met settles it; both met do; otherwise it stays open. */
function both(a: Assessed, b: Assessed): Assessed {
  const quote = [...new Set([a.quote, b.quote].filter(Boolean))].join(' ');
  if (a.verdict === 'not_met') return a;
  if (b.verdict === 'not_met') return b;
  return { verdict: a.verdict === 'met' && b.verdict === 'met' ? 'met' : 'unclear', quote };
}

/** Both sexes named together, which asks nothing of the patient's sex. */
const EITHER_SEX =
  /\b(?:(?:male|men)\s*(?:or|and|\/)\s*(?:female|women)|(?:female|women)\s*(?:or|and|\/)\s*(?:male|men)|both sexes|of either sex|homens e mulheres|mulheres e homens|ambos os sexos|masculino ou feminino|hombres y mujeres|mujeres y hombres|ambos sexos|masculino o femenino|manner und frauen|frauen und manner|mannlich oder weiblich|beide geschlechter|beiderlei geschlechts)\b/g;

/** A criterion that accepts a value from the past too. */
const LOOKS_BACK =
  /\b(?:documented|ever|any time|at any point|history of|previous|prior|historic\w*|documentad[oa]|previ[oa]|alguma vez|jemals|dokumentiert\w*|vorbekannt\w*)\b/;

/** A condition of pregnancy ('gestational diabetes between 24 and 28 weeks'): its weeks are not the pregnancy's now. */
const GESTATION_CONDITION =
  /\b(?:diabet\w*|hypertens\w*|hipertens\w*|pre-?eclamp\w*|praeklampsie|preeclampsia|cholestasis|colestase|colestasis|trophoblast\w*)\b/;

const GESTATION = /\b(?:gestational|gestation|gestacional|gestacao|gestacion|gestationsalter|schwangerschaftswoche\w*|ssw)\b/;

const OR_JOIN = /\s(?:or|ou|oder|o)\s/;
const AND_JOIN = /\s(?:and|e|und|y)\s/;

/**
 * A criterion joining measures or a measure and a condition ('creatinine clearance below 30 mL/min or eGFR < 30',
 * 'eGFR < 30 or dialysis'): each part is screened on its own, and the parts settle the whole as 'or' or 'and'
 * do; a part left open leaves the whole open unless another part settles it.
 */
function assessParts(text: string, record: Record_, acronyms: string[] = []): Assessed | undefined {
  const join = OR_JOIN.test(text) ? 'or' : AND_JOIN.test(text) && !/\b(between|entre|zwischen)\b/.test(text) ? 'and' : undefined;
  if (!join) return undefined;
  const parts = text
    .split(join === 'or' ? OR_JOIN : AND_JOIN)
    .map((p) => p.trim())
    .filter(Boolean);
  // Only where the criterion names a measure and something besides it: a list of conditions is read whole.
  const measures = parts.filter((p) => analyteIn(p) && boundsIn(p)).length;
  if (parts.length < 2 || measures === 0 || measures + parts.filter((p) => /\bconcept/.test(withConcepts(p))).length < 2) return undefined;
  const results = parts.map((p) => assess(p, record, acronyms) ?? { verdict: 'unclear' as Verdict, quote: '' });
  const quoteOf = (rs: Assessed[]) => [...new Set(rs.map((r) => r.quote).filter(Boolean))].join(' ');
  const met = results.filter((r) => r.verdict === 'met');
  const notMet = results.filter((r) => r.verdict === 'not_met');
  if (join === 'or') {
    if (met.length) return { verdict: 'met', quote: met[0]!.quote };
    // Parts the record does not give at all are no reason to doubt the ones it settles (an eGFR without a clearance).
    const silent = results.filter((r) => r.verdict === 'unclear' && !r.quote).length;
    if (notMet.length > 0 && notMet.length + silent === results.length) return { verdict: 'not_met', quote: quoteOf(notMet) };
  } else {
    if (notMet.length) return { verdict: 'not_met', quote: notMet[0]!.quote };
    if (met.length === results.length) return { verdict: 'met', quote: quoteOf(met) };
  }
  return { verdict: 'unclear', quote: quoteOf([...met, ...notMet]) };
}

export function screenOffline(criteria: Criterion[], documents: string, today = new Date()): CriterionAssessment[] {
  const lines = sentences(documents).map(readLine);
  const record: Record_ = { lines, age: patientAge(lines, today), sex: patientSex(lines), recordOn: recordDate(lines, today)?.date ?? today };
  return criteria.map((c) => {
    const written = normalise(c.definition);
    // What a parenthesis adds ('(CKD-EPI)', '(vitamin K antagonist or direct oral anticoagulant)') clarifies; the
    // criterion is what is left, unless only the parenthesis holds its numbers ('BMI (≥ 30 kg/m²)').
    const stripped = written
      .replace(/\([^()]*\)/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    const text = boundsIn(written) && !boundsIn(stripped) ? written : stripped;
    // Acronyms as the criterion writes them ('HIV', 'HCV'), which no sentence may match without.
    const acronyms = [...new Set((c.definition.match(/(?<![\p{L}\d])\p{Lu}[\p{Lu}\d]{1,5}(?![\p{L}\d])/gu) ?? []).map((a) => normalise(a)))].filter(
      (a) => !CONNECTIVE.has(a) && !/^[ivx]+$/.test(a) && !isConcept(withConcepts(a).trim()),
    );
    const result = assessParts(text, record, acronyms) ?? assess(text, record, acronyms) ?? { verdict: 'unclear', quote: '' };
    return { criterion_id: c.id, verdict: result.verdict, evidence: result.quote };
  });
}
