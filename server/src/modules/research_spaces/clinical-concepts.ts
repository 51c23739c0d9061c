/**
 * Eligibility concepts that trials and records name differently across the app's four languages (and in common
 * abbreviations): each phrase is replaced by one token before the offline screener compares words, so an English
 * protocol can be screened against Portuguese, German or Spanish records. Phrases are already normalised (lower
 * case, no accents). Kept small on purpose: each entry must mean the same thing in every form listed.
 */
const CONCEPTS: Record<string, string[]> = {
  conceptdiabetestype2: [
    'type 2 diabetes mellitus', 'type ii diabetes mellitus', 'diabetes mellitus type 2', 'type 2 diabetes', 'type ii diabetes', 't2dm', 'dm2',
    'diabetes mellitus tipo 2', 'diabetes tipo 2', 'dm tipo 2', 'diabetes mellitus typ 2', 'typ-2-diabetes', 'typ 2 diabetes', 'diabetes typ 2',
  ],
  conceptdiabetestype1: ['type 1 diabetes mellitus', 'type 1 diabetes', 't1dm', 'diabetes mellitus tipo 1', 'diabetes tipo 1', 'typ-1-diabetes', 'typ 1 diabetes', 'diabetes mellitus typ 1'],
  conceptpregnancy: ['pregnancy', 'pregnant', 'gravidez', 'gravida', 'schwangerschaft', 'schwanger', 'embarazo', 'embarazada'],
  conceptbreastfeeding: ['breastfeeding', 'breast-feeding', 'lactating', 'lactation', 'amamentacao', 'amamenta', 'stillzeit', 'stillend', 'lactancia', 'lactante'],
  conceptsmoking: ['smoking', 'smoker', 'tabagismo', 'fumador', 'fumadora', 'fumante', 'rauchen', 'raucher', 'raucherin', 'tabaquismo'],
  concepthypertension: ['arterial hypertension', 'hypertension', 'hipertensao arterial', 'hipertensao', 'arterielle hypertonie', 'hypertonie', 'hipertension arterial', 'hipertension'],
  conceptheartfailure: ['heart failure', 'cardiac failure', 'insuficiencia cardiaca', 'herzinsuffizienz'],
  conceptinsulin: ['insulin therapy', 'insulin treatment', 'insulinoterapia', 'insulintherapie', 'insulina', 'insulin'],
  conceptdialysis: ['dialysis', 'haemodialysis', 'hemodialysis', 'dialise', 'hemodialise', 'dialyse', 'hamodialyse', 'dialisis', 'hemodialisis'],
  conceptstroke: ['stroke', 'cerebrovascular accident', 'acidente vascular cerebral', 'avc', 'schlaganfall', 'ictus', 'accidente cerebrovascular'],
  conceptmyocardialinfarction: ['myocardial infarction', 'heart attack', 'enfarte agudo do miocardio', 'enfarte do miocardio', 'infarto do miocardio', 'herzinfarkt', 'myokardinfarkt', 'infarto agudo de miocardio', 'infarto de miocardio'],
};

const PHRASES = Object.entries(CONCEPTS)
  .flatMap(([token, phrases]) => phrases.map((phrase) => ({ token, phrase })))
  // Longest first, so 'type 2 diabetes mellitus' wins over 'type 2 diabetes'.
  .sort((a, b) => b.phrase.length - a.phrase.length);

const PATTERN = new RegExp(`(?<![a-z0-9])(${PHRASES.map((p) => p.phrase.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})(?![a-z0-9])`, 'g');
const TOKEN = new Map(PHRASES.map((p) => [p.phrase, p.token]));

/** Normalised text with every known concept phrase replaced by its token. */
export function withConcepts(normalised: string): string {
  return normalised.replace(PATTERN, (phrase) => TOKEN.get(phrase) ?? phrase);
}
