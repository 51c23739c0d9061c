/**
 * Facts a consultation states, read from its sentences (numbers already in digits, spoken-numbers.ts): vitals
 * and measurements, medicines with their dose and frequency, allergies, the follow-up, the sick-leave period and
 * where the patient is referred. Each fact keeps the sentence it came from, so a note can show its source.
 */
import type { Language } from '../../../../contract/constants.js';
import { readMeasurements, type Measure } from '../../clinical/measurements.js';
import { frequencyIn } from '../../clinical/frequency.js';
import { MEDICINE_ENDING, MEDICINE_PHRASES, MEDICINE_WORDS } from '../../clinical/medicine-names.js';
import { scopesAround, scopesOf, type Scope } from '../../clinical/scope.js';
import { fold } from '../../clinical/text.js';
import { ALLERGY, NO_ALLERGY } from './cues.js';

export { fold };

/**
 * Common diagnoses as word stems in the four languages (lower case, no accents). A document naming one the
 * consultation never did gets it flagged (generated_documents/evidence.ts); a clinician's sentence naming one is
 * the assessment (structure.ts).
 */
export const DIAGNOSES: RegExp[] = [
  /\b(?:pneumon|neumon)\p{L}*/u,
  /\b(?:bronchit|bronquit)\p{L}*/u,
  /\botit\p{L}*/u,
  /\bsinusit\p{L}*/u,
  /\b(?:pharyngit|faringit|tonsillit|amigdalit)\p{L}*/u,
  /\b(?:cystit|cistit|zystit|pyelonephrit|pielonefrit)\p{L}*|\burinary tract infection|\binfe[cç]+[aã]o urin[aá]ria|\binfeccion urinaria|\bharnwegsinfekt\p{L}*/u,
  /\bgastroenterit\p{L}*/u,
  /\b(?:migrain|migran|enxaquec|jaqueca)\p{L}*/u,
  /\b(?:depression|depressao|depresion|depressiv\p{L}*|depresiv\p{L}*)\b/u,
  /\b(?:anxiety disorder|generalised anxiety|generalized anxiety|perturbacao de ansiedade|trastorno de ansiedad|angststorung)\b/u,
  /\b(?:gout|gicht|podagra)\b/u,
  /\b(?:osteoarthrit|arthros|artros)\p{L}*/u,
  /\b(?:influenza|gripe|grippe)\b/u,
  /\bcovid\p{L}*/u,
  /\b(?:hypothyr|hipotiroid|hipotireoid|hyperthyr|hipertiroid|hipertireoid)\p{L}*/u,
  /\b(?:dyslipid|dislipid|hypercholesterol|hipercolesterol)\p{L}*/u,
  /\b(?:anaemi|anemi|anami)\p{L}*/u,
  /\bangina\b/u,
  /\b(?:obesity|obesidade|obesidad|adipositas)\b/u,
  /\b(?:cancer|carcinom|karzinom|neoplas|malignom|lymphom|linfom|leukem|leucem)\p{L}*/u,
  /\b(?:fractur|fratur|fraktur)\p{L}*/u,
  /\b(?:appendicit|apendicit|appendizit)\p{L}*/u,
  /\b(?:cellulit|celulit|phlegmon|erysipel|erisipel)\p{L}*/u,
  /\b(?:conjunctivit|conjuntivit|konjunktivit)\p{L}*/u,
  /\b(?:dermatit|eczem|ekzem|psoria)\p{L}*/u,
  /\b(?:urticari|urtikari)\p{L}*/u,
  /\b(?:gastroesophageal reflux|refluxo gastroesofagico|reflujo gastroesofagico|refluxkrankheit|gerd|drge)\b/u,
  /\b(?:epilep)\p{L}*/u,
  /\b(?:dementia|demencia|demenz|alzheimer)\p{L}*/u,
  /\b(?:parkinson)\p{L}*/u,
  /\b(?:sepsis|sepse|septic\p{L}*)\b/u,
  /\b(?:embolism|embolia|embolie|thrombos|trombos)\p{L}*/u,
  /\b(?:menisc|menisk|menisco)\p{L}*/u,
  /\b(?:thyroidit|tireoidit|tiroidit|thyreoidit|hashimoto)\p{L}*/u,
  /\b(?:bppv|vppb|benign paroxysmal|vertigem posicional|vertigo posicional|lagerungsschwindel)\b/u,
];

/** Long-term conditions a clinician names as a conclusion ('So, a flare of your COPD'), stems in four languages. */
export const CHRONIC =
  /\b(?:hypertens\p{L}*|hipertens\p{L}*|hypertonie|diabet\p{L}*|asthma|asma|copd|dpoc|epoc|bpco|atrial fibrillation|fibrilhacao auricular|fibrilacion auricular|vorhofflimmern|heart failure|insuficiencia cardiaca|herzinsuffizienz|stroke|acidente vascular|ictus|schlaganfall)\b/u;

/** Whether a (folded) sentence names a diagnosis. */
export const namesDiagnosis = (folded: string) => CHRONIC.test(folded) || DIAGNOSES.some((d) => d.test(folded));

export type { Measure } from '../../clinical/measurements.js';
export type Fact<T = string> = { value: T; source: string };

/**
 * The measurements stated unambiguously, one value each (clinical/measurements.ts): a value heard twice
 * differently, out of its unit, of another time or person, or implausible has none.
 */
export function measurementsIn(sentences: string[], language: Language): Partial<Record<Measure, Fact>> {
  return readMeasurements(sentences, language).values;
}

/** The medicines a (folded) sentence names, with where each starts: read word by word, which stays fast on long text. */
function medicineNames(text: string): { name: string; index: number }[] {
  const found: { name: string; index: number }[] = [];
  for (const phrase of MEDICINE_PHRASES) {
    const at = text.indexOf(phrase);
    if (at >= 0 && !/\p{L}/u.test(text[at - 1] ?? '') && !/\p{L}/u.test(text[at + phrase.length] ?? '')) found.push({ name: phrase, index: at });
  }
  for (const m of text.matchAll(/\p{L}+/gu)) if (MEDICINE_WORDS.has(m[0]) || MEDICINE_ENDING.test(m[0])) found.push({ name: m[0], index: m.index! });
  return found.sort((a, b) => a.index - b.index);
}
const DOSE = String.raw`\d+(?:[.,]\d+)?\s*(?:mg|milligrams?|miligramas?|miligramos?|milligramm|mcg|µg|micrograms?|g|grams?|gramas?|gramos?|gramm|ml|units?|unidades|einheiten|ui|ie|puffs?|inalacoes|hube|inhalaciones)`;
const DURATION = String.raw`(?:for|durante|por|fur|during) \d+ (?:days?|weeks?|months?|dias|semanas|meses|tage|tagen|wochen|monate|monaten)`;

// Compiled once: notes and their evidence read every sentence with them.
const DOSE_AFTER = new RegExp(`^\\s*(?:(?:para|to|auf|a|at|hasta|up to)\\s+)?(${DOSE})(?![\\p{L}\\d])`, 'u');
const DURATION_IN = new RegExp(DURATION);
/** Where what is said of one medicine ends: the next sentence part, or the next medicine. */
const STRETCH_END = /[;.!?]|,\s*(?:and|e|und|y)\s|\s(?:and|e|und|y|but|mas|aber|pero)\s(?=\p{L}+\s+\d)/u;

/** Scopes in which a medicine named is not one the patient takes or is given ('no aspirin', 'if we tried …'). */
/** Words after a name that add it to what was said before ('too', 'as well', 'também', 'auch'). */
const ADDED_TOO = /^[\s,]*(?:\d+(?:[.,]\d+)?\s*\p{L}*\s*)?(?:too|also|as well|either|tambem|auch|ebenfalls|tambien|tampoco)(?![\p{L}])/u;
const NOT_TAKEN: Scope[] = ['negated', 'past', 'family', 'hypothetical', 'stopped'];
/**
 * Between two names, a correction of the first ('penicillin or, I'm sorry, amoxicillin', 'ramipril, quer dizer,
 * lisinopril'): the first was never meant, and is no medicine of the patient's.
 */
const CORRECTED_BY_NEXT =
  /^(?:\s*\d+(?:[.,]\d+)?\s*(?:mg|milligrams?|miligramas?|miligramos?|mcg|g|ml|units?))?[\s,]*(?:(?:or|ou|oder|o)[\s,]+)?(?:i'm sorry|i am sorry|sorry|i mean|i meant|no wait|quer dizer|ou melhor|digo|perdao|desculpe|ich meine|ich meinte|entschuldigung|quiero decir|mejor dicho|o sea|perdon)[\s,]*$/u;

/**
 * A medicine with what the sentence says of its dose, frequency and duration, as said, within its own stretch
 * (a frequency said of the next medicine is not this one's). With the language, a medicine named in a negated,
 * past, someone else's or hypothetical clause is left out: the sentence still says it, the list does not.
 */
export function medicinesIn(sentences: string[], language?: Language): Fact[] {
  const found: Fact[] = [];
  const seen = new Set<string>();
  for (const s of sentences) {
    const text = fold(s);
    // What the patient is allergic to is not a medicine they take.
    if (Object.values(ALLERGY).some((cue) => cue.test(text))) continue;
    const names = medicineNames(text);
    names.forEach((m, k) => {
      const name = m.name;
      if (seen.has(name)) return;
      const following = names[k + 1];
      // Not where the next name is added to it ('metformin, sorry, insulin too'): that is a list, not a correction.
      const afterNext = following ? text.slice(following.index + following.name.length) : '';
      if (following && CORRECTED_BY_NEXT.test(text.slice(m.index + name.length, following.index)) && !ADDED_TOO.test(afterNext)) return;
      if (language) {
        const scopes = scopesAround(text, m.index, m.index + name.length, language);
        if (NOT_TAKEN.some((scope) => scopes.has(scope))) return;
      }
      seen.add(name);
      const next = following?.index ?? text.length;
      let after = text.slice(m.index + name.length, Math.min(next, m.index + name.length + 80));
      const cut = after.search(STRETCH_END);
      if (cut >= 0) after = after.slice(0, cut);
      // 'ramipril 5 mg', 'aumentar o ramipril para 10 miligramas', 'Ramipril auf 10 mg'.
      const dose = after.match(DOSE_AFTER)?.[1];
      const frequency = frequencyIn(after);
      const duration = after.match(DURATION_IN)?.[0];
      // The name as the sentence writes it (its capitals), then what it says of it.
      const written = s.slice(m.index, m.index + name.length);
      found.push({ value: [written, dose, frequency, duration].filter(Boolean).join(' '), source: s });
    });
  }
  return found;
}

const NOT_DRUG_ALLERGY =
  /(?<![\p{L}])(?:seasonal|environmental|food|pollen|hay fever|dust|pet|cat|dog|grass|sazona\p{L}*|alimentar\p{L}*|polen|po|saisonal\p{L}*|heuschnupfen|nahrungsmittel\p{L}*|estacional\p{L}*|alimentari\p{L}*)(?![\p{L}])/u;

/** Words a question uses for what it asks about ('any medicine', 'algum medicamento'): never an allergen. */
const ASKED_ABOUT = /^(?:any|anything|some|something|algum|alguma|algo|einen|eine|irgend\p{L}*|algun|alguna|algo)(?![\p{L}])/u;
/** A reply that says no (folded): 'no', 'não, a nada', 'I don't think so', 'nope', 'keine', 'ninguna'. */
const NO_REPLY =
  /^(?:no|nope|none|nothing|not that i know|i don'?t think so|i don'?t|nao|nada|nenhum|nenhuma|nein|keine|keiner|nichts|ninguna|ninguno)(?![\p{L}])/u;
/** Allergens a short reply names besides medicines (folded). */
const ALLERGENS =
  /(?<![\p{L}])(?:penicillin\p{L}*|penicilin\p{L}*|sulfa\p{L}*|latex|iodine|iodo|jod|yodo|contrast|nuts?|peanuts?|shellfish|marisco\p{L}*|eggs?|ovo|huevo|bees?|wasp|abelha|insect\p{L}*|nsaids?|aines|codeine|morphine|pollen|polen)(?![\p{L}])/u;

/** What the patient is allergic to, or that they have no allergies; the answer to 'Any allergies?' too. */
export function allergiesIn(said: string[], language: Language): Fact | undefined {
  // 'No seasonal allergies, but allergic to penicillin': each part is read on its own.
  const sentences = said.flatMap((s) =>
    s
      .split(/;|,?\s+(?=(?:but|mas|aber|pero)\s)/u)
      .map((p) => p.replace(/^(?:but|mas|aber|pero)\s+/u, '').trim())
      .filter(Boolean),
  );
  for (let i = 0; i < sentences.length; i++) {
    const text = fold(sentences[i]!);
    // Hay fever and food are not what a prescriber's allergy line is about: 'no seasonal allergies' says
    // nothing of medicines, either way.
    if (NOT_DRUG_ALLERGY.test(text)) continue;
    // Someone else's allergy, a doubted one or one that was not, is no allergy line ('My mother is allergic to…',
    // 'I thought I was allergic to penicillin but I am not').
    const scopes = scopesOf(text, language);
    if (scopes.has('family') || scopes.has('hypothetical') || scopes.has('uncertain') || scopes.has('past')) continue;
    // 'No allergies to penicillin' says nothing of others: only a general 'no allergies' is none.
    const none = text.match(NO_ALLERGY[language]);
    if (none) {
      if (/^\s*(?:to|a|ao|gegen|al?)\s+\p{L}/u.test(text.slice(none.index! + none[0].length)) || text.includes('?')) continue;
      return { value: 'none', source: sentences[i]! };
    }
    if (!ALLERGY[language].test(text)) continue;
    const stated = text.match(
      /(?:allergic to|allergy to|alergic[oa] a|alergia a|allergisch gegen|allergie gegen)\s+(?:a |o |la |el |der |die |das )?([\p{L}\d -]{3,40}?)(?=[.,;!?]|$| and | e | und | y )/u,
    );
    // What a question asks about is no allergy ('Are you allergic to any medicine?'): its answer says.
    const inQuestion =
      stated &&
      text
        .slice(stated.index! + stated[0].length)
        .trimStart()
        .startsWith('?');
    if (stated && !inQuestion && !ASKED_ABOUT.test(stated[1]!)) {
      if (scopes.has('negated')) continue;
      // Only what names a medicine or a usual allergen: 'cats and penicillin' is left to the sentence.
      const allergen = stated[1]!.trim();
      if ((medicinesIn([allergen]).length > 0 || ALLERGENS.test(allergen)) && !/ and | e | und | y /.test(text.slice(stated.index!)))
        return { value: allergen, source: sentences[i]! };
      continue;
    }
    // A question with its answer, in one sentence or the next: 'Any allergies? Penicillin.'
    const asked = sentences[i]!.indexOf('?');
    const reply = asked >= 0 && asked < sentences[i]!.trim().length - 1 ? sentences[i]!.slice(asked + 1) : asked >= 0 ? sentences[i + 1] : undefined;
    if (reply) {
      const source = asked < sentences[i]!.trim().length - 1 ? sentences[i]! : `${sentences[i]} ${reply}`;
      const answer = fold(reply)
        .replace(/[.!]+$/, '')
        .trim();
      // 'Allergic to penicillin? No.' answers for penicillin only; 'Not to medications, but…' is not a plain no.
      const specific = stated && !ASKED_ABOUT.test(stated[1]!);
      if (NO_REPLY.test(answer) && !specific && !/(?:but|mas|aber|pero)/.test(answer)) return { value: 'none', source };
      if (NO_REPLY.test(answer)) continue;
      // A short answer is the allergy only when it names a medicine or a usual allergen; 'I don't think so' is none.
      if (answer.split(/\s+/).length <= 5 && (medicinesIn([reply]).length > 0 || ALLERGENS.test(answer)))
        return { value: reply.replace(/[.!]+$/, '').trim(), source };
    }
  }
  return undefined;
}

const DAYS: Record<string, number> = {
  day: 1,
  days: 1,
  dia: 1,
  dias: 1,
  tag: 1,
  tage: 1,
  tagen: 1,
  week: 7,
  weeks: 7,
  semana: 7,
  semanas: 7,
  woche: 7,
  wochen: 7,
  month: 30,
  months: 30,
  mes: 30,
  meses: 30,
  monat: 30,
  monate: 30,
  monaten: 30,
};
const ONE = '(?:a|an|one|um|uma|ein|eine|einen|einer|un|una|1)';
const PERIOD = `(?:(\\d+)|${ONE}) (days?|weeks?|months?|dias?|semanas?|mes|meses|tage|tagen|tag|woche|wochen|monat|monate|monaten)`;

/** How long the sick leave is, in days, when the consultation says so ('sick note for a week', 'baixa de 3 dias'). */
export function sickLeaveIn(sentences: string[]): Fact<number> | undefined {
  const leave = /(?:sick note|sick leave|off work|fit note|certificate|certificado|baixa|incapacidade|krankschreib\w*|krankgeschrieben|arbeitsunfahig\w*|baja)/;
  for (const s of sentences) {
    const text = fold(s);
    const at = text.search(leave);
    if (at < 0) continue;
    // The period said after the leave ('certificado … por uma semana'), else just before it ('a week off work').
    const m = text.slice(at).match(new RegExp(PERIOD)) ?? text.slice(Math.max(0, at - 30), at).match(new RegExp(PERIOD));
    if (m) return { value: (m[1] ? Number(m[1]) : 1) * DAYS[m[2]!]!, source: s };
  }
  return undefined;
}

const INTERVAL = String.raw`((?:(?:a|an|one|\d+) (?:days?|weeks?|months?) (?:to|or) \d+ (?:days|weeks|months)|(?:\d+(?:\s*(?:-|to|or|a|ou|bis|o)\s*\d+)?|a|an|one|a couple of|a couple|a few|uma|um|umas|uns|eine|einer|ein paar|un|una|unas|unos) (?:days?|weeks?|months?|years?|dias?|semanas?|mes|meses|anos?|tagen?|wochen?|monaten?|jahr|jahren|anos?)))`;
const FOLLOW_UP = new RegExp(
  String.raw`(?:come back|come in|check you|take a look|follow up|follow-up|followup|review|see you|see him|see her|check back|recheck|return|schedule|appointment|visit|touch base|volte|voltar|regresse|reavaliacao|revisao|consulta|wiedervorstellung|kontrolle|kommen sie|termin|vuelva|volver|revision|control|cita)\D{0,40}?(?:in|em|daqui a|dentro de|na|en|within|nach|after)\s+(?:(about|around|approximately|roughly|cerca de|etwa|ungefahr|unos|unas)\s+|(?:another|the next|mais|outros?|outras?|weiteren|otros?|otras?)\s+)?` +
    INTERVAL,
);

const CONDITION_WORD = /(?<![\p{L}])(?:if|unless|se|caso|wenn|falls|si)(?![\p{L}])/gu;
/** 'See if', 'saber se', 'sehen, ob': whether, not a condition. */
const WHETHER_BEFORE = /(?:see|check|know|ask|find out|ver|saber|perguntar|sehen|wissen|fragen)\s*$/u;

function conditionGoverns(text: string, start: number, end: number): boolean {
  for (const c of text.matchAll(CONDITION_WORD)) {
    if (WHETHER_BEFORE.test(text.slice(0, c.index))) continue;
    if (c.index < start) return true;
    const gap = text.slice(end, c.index).trim();
    if (gap.split(/\s+/).filter(Boolean).length <= 3 && !/(?:^|\s)(?:and|but|so|e|mas|und|aber|y|pero)$/u.test(gap.replace(/[,;]$/, '').trim())) return true;
  }
  return false;
}

/** When the patient comes back ('come back in 2 weeks', 'see you again in about 3 months', 'volte daqui a 15 dias', 'Kontrolle in 4 Wochen'). */
export function followUpIn(sentences: string[], language: Language = 'en'): Fact | undefined {
  const found: Fact[] = [];
  for (const s of sentences) {
    const text = fold(s);
    const m = text.match(FOLLOW_UP);
    if (!m) continue;
    // Not a question, not a condition, not another appointment or a past one.
    const scopes = scopesAround(text, m.index!, m.index! + m[0].length, language);
    // A condition before the follow-up, or right after it, reaches it ('If it does not improve, come back in 2 days',
    // 'come back in 2 days if …'); one that opens a later clause does not ('check you in 2 weeks to see if the bones
    // have realigned, and if they haven't, …').
    if (scopesOf(text, language).has('hypothetical') && conditionGoverns(text, m.index!, m.index! + m[0].length)) scopes.add('hypothetical');
    if (s.includes('?') || ['negated', 'past', 'hypothetical'].some((sc) => scopes.has(sc as Scope))) continue;
    // 'About 3 to 4 weeks' keeps its 'about': an interval said roughly is written roughly.
    found.push({ value: m[1] ? `${m[1]} ${m[2]}` : m[2]!, source: s });
  }
  // Said two different ways, the follow-up is no value: the sentences say it.
  return new Set(found.map((f) => f.value)).size === 1 ? found[0] : undefined;
}

/**
 * Where the patient is referred ('refer you to cardiology', 'encaminhar para ortopedia', 'Überweisung zur
 * Kardiologie'): only a referral said as agreed, not one offered, declined or only considered ('we could refer
 * you to…', 'I don't want to see…').
 */
export function referralIn(sentences: string[], language?: Language): Fact | undefined {
  const cue =
    /(?:refer(?:ring)? (?:you |him |her |the patient )?to|referral to|encaminh\w* (?:para|a|ao|a consulta de)|referenci\w* (?:para|a|ao)|uberweis\w* (?:sie )?(?:an|zu|zur|zum|in die)|derivar\w* (?:a|al)|le derivo (?:a|al))\s+(?:the |a |o |la |el |die |den |der )?([\p{L} -]{3,40}?)(?=[.,;!?]|$| and | e | und | y | for | para | por | wegen )/u;
  for (const s of sentences) {
    const text = fold(s);
    const m = text.match(cue);
    if (!m) continue;
    if (language) {
      const scopes = scopesAround(text, m.index!, m.index! + m[0].length, language);
      if (scopes.has('negated') || scopes.has('hypothetical') || scopes.has('uncertain')) continue;
    }
    return { value: m[1]!.trim(), source: s };
  }
  return undefined;
}
