// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * Eligibility concepts that trials and records name differently across the app's four languages (and in common
 * abbreviations): each phrase is replaced by one token before the offline screener compares words, so an English
 * protocol can be screened against Portuguese, German or Spanish records. Phrases are already normalised (lower
 * case, no accents). Kept small on purpose: each entry must mean the same thing in every form listed.
 */

/**
 * A state holds only while it lasts (pregnant, smoking, on insulin): 'former smoker' is not a smoker. A condition
 * once had still counts unless the criterion asks for it now ('history of stroke' is a stroke).
 */
export type ConceptKind = 'state' | 'condition';

type Concept = {
  kind: ConceptKind;
  phrases: string[];
  /** A broader concept whose absence is this one's absence ('no oxygen therapy': no long-term oxygen either). */
  within?: string;
  /** A medicine: a record's medication list that leaves it out says the patient is not taking it. */
  medicine?: true;
  /** A state no patient of this age or older is in (pregnancy at 60). */
  notFromAge?: number;
};

const CONCEPTS: Record<string, Concept> = {
  conceptdiabetestype2: {
    kind: 'condition',
    within: 'conceptdiabetes',
    phrases: [
      'type 2 diabetes mellitus', 'type ii diabetes mellitus', 'diabetes mellitus type 2', 'diabetes mellitus type ii', 'type 2 diabetes', 'type ii diabetes', 'type 2 diabetic', 'type-2 diabetes',
      't2dm', 't2d', 'dm2', 'dm 2', 'dm ii', 'dm tipo 2', 'dm typ 2', 'non-insulin-dependent diabetes', 'niddm',
      'diabetes mellitus tipo 2', 'diabetes mellitus tipo ii', 'diabetes tipo 2', 'diabetes tipo ii', 'diabetico tipo 2', 'diabetica tipo 2',
      'diabetes mellitus typ 2', 'diabetes mellitus typ ii', 'typ-2-diabetes', 'typ 2 diabetes', 'typ-2-diabetes mellitus', 'diabetes typ 2', 'typ-2-diabetiker', 'typ-2-diabetikerin',
    ],
  },
  conceptdiabetestype1: {
    kind: 'condition',
    within: 'conceptdiabetes',
    phrases: [
      'type 1 diabetes mellitus', 'type i diabetes mellitus', 'diabetes mellitus type 1', 'diabetes mellitus type i', 'type 1 diabetes', 'type i diabetes', 'type 1 diabetic', 'type-1 diabetes',
      't1dm', 't1d', 'dm1', 'dm 1', 'dm tipo 1', 'dm typ 1', 'insulin-dependent diabetes', 'iddm', 'juvenile diabetes',
      'diabetes mellitus tipo 1', 'diabetes mellitus tipo i', 'diabetes tipo 1', 'diabetes tipo i', 'diabetico tipo 1', 'diabetica tipo 1',
      'diabetes mellitus typ 1', 'diabetes mellitus typ i', 'typ-1-diabetes', 'typ 1 diabetes', 'typ-1-diabetes mellitus', 'diabetes typ 1', 'typ-1-diabetiker', 'typ-1-diabetikerin',
    ],
  },
  // Any diabetes: 'Sem diabetes', 'No diabético', 'Kein Diabetes mellitus' rule out either type.
  conceptdiabetes: { kind: 'condition', phrases: ['diabetes mellitus', 'diabetes', 'diabetic', 'diabetico', 'diabetica', 'diabetiker', 'diabetikerin'] },
  conceptpostmenopause: {
    kind: 'state',
    phrases: ['postmenopausal', 'menopause', 'posmenopausa', 'posmenopausica', 'postmenopausa', 'menopausa', 'postmenopausia', 'postmenopausica', 'menopausia', 'postmenopause'],
  },
  conceptbiologic: {
    kind: 'state',
    medicine: true,
    phrases: [
      'biologic therapy', 'biologic treatment', 'biological therapy', 'biologics', 'biologic', 'monoclonal antibody', 'terapeutica biologica', 'tratamento biologico', 'biologicos', 'biologico',
      'biologika', 'biologikum', 'biologikatherapie', 'tratamiento biologico', 'terapia biologica', 'anticuerpo monoclonal',
      'omalizumab', 'xolair', 'mepolizumab', 'nucala', 'reslizumab', 'cinqair', 'cinqaero', 'benralizumab', 'fasenra', 'dupilumab', 'dupixent', 'tezepelumab', 'tezspire',
    ],
  },
  conceptpregnancy: { kind: 'state', notFromAge: 60, phrases: ['pregnancy', 'pregnant', 'gestation', 'gravidez', 'gravida', 'gestacao', 'gestante', 'schwangerschaft', 'schwanger', 'embarazo', 'embarazada', 'gestacion'] },
  conceptbreastfeeding: {
    kind: 'state',
    notFromAge: 60,
    phrases: ['breastfeeding', 'breast-feeding', 'breast feeding', 'lactating', 'lactation', 'nursing mother', 'amamentacao', 'amamenta', 'amamentar', 'aleitamento materno', 'lactante', 'stillzeit', 'stillend', 'stillt', 'lactancia', 'dando el pecho'],
  },
  conceptsmoking: {
    kind: 'state',
    phrases: ['smoking', 'smoker', 'smokers', 'smokes', 'smoked', 'smoke', 'tobacco use', 'tobacco', 'tabagismo', 'habitos tabagicos', 'habito tabagico', 'tabagicos', 'tabagico', 'fumou', 'fumava', 'fumador', 'fumadora', 'fumante', 'fuma', 'fumar', 'rauchen', 'raucher', 'raucherin', 'raucht', 'rauchte', 'nikotinabusus', 'nikotinkonsum', 'tabakkonsum', 'tabaquismo', 'fumadores', 'fumo', 'fumaba'],
  },
  conceptmalesex: { kind: 'condition', phrases: ['male', 'man', 'sexo masculino', 'sexo: masculino', 'masculino', 'homem', 'mannlich', 'geschlecht: mannlich', 'hombre', 'varon'] },
  concepthypertension: { kind: 'condition', phrases: ['arterial hypertension', 'hypertension', 'hipertensao arterial', 'hipertensao', 'arterielle hypertonie', 'hypertonie', 'hipertension arterial', 'hipertension'] },
  conceptheartfailure: {
    kind: 'condition',
    phrases: [
      'heart failure', 'cardiac failure', 'hfref', 'hfpef', 'hfmref', 'chf', 'insuficiencia cardiaca', 'insuf. cardiaca', 'insuf cardiaca', 'icfer', 'icfep', 'herzinsuffizienz', 'herzschwache',
    ],
  },
  conceptcopd: {
    kind: 'condition',
    phrases: [
      'chronic obstructive pulmonary disease', 'chronic obstructive lung disease', 'copd', 'doenca pulmonar obstrutiva cronica', 'dpoc',
      'chronisch obstruktive lungenerkrankung', 'chronisch-obstruktive lungenerkrankung', 'enfermedad pulmonar obstructiva cronica', 'epoc',
    ],
  },
  conceptasthma: { kind: 'condition', phrases: ['bronchial asthma', 'asthma bronchiale', 'asma bronquica', 'asma bronquial', 'asthma', 'asma'] },
  conceptlongtermoxygen: {
    kind: 'state',
    within: 'conceptoxygentherapy',
    phrases: [
      'long-term oxygen therapy', 'long term oxygen therapy', 'long-term oxygen', 'ltot', 'home oxygen therapy', 'home oxygen',
      'oxigenoterapia de longa duracao', 'oxigenoterapia domiciliaria', 'oxigenoterapia cronica', 'oxigenio domiciliario', 'oxigenoterapia de larga duracion', 'oxigeno domiciliario',
      'langzeit-sauerstofftherapie', 'sauerstoff-langzeittherapie', 'sauerstofflangzeittherapie', 'langzeitsauerstofftherapie', 'o2-langzeittherapie', 'o 2-langzeittherapie', '0 2-langzeittherapie', '02-langzeittherapie', 'heimsauerstoff',
    ],
  },
  conceptoxygentherapy: { kind: 'state', phrases: ['oxygen therapy', 'supplemental oxygen', 'oxigenoterapia', 'sauerstofftherapie', 'sauerstoffgabe'] },
  conceptinsulin: {
    kind: 'state',
    medicine: true,
    phrases: ['insulin therapy', 'insulin treatment', 'insulinoterapia', 'insulintherapie', 'insulinterapia', 'insulina', 'insulin', 'insulins', 'insulinas', 'insulinpflichtig', 'insulinizado', 'insulinizada', 'insulinotratado', 'insulinotratada'],
  },
  conceptdialysis: {
    kind: 'state',
    within: 'conceptrenalreplacement',
    phrases: ['maintenance dialysis', 'chronic dialysis', 'programa de dialisis', 'programa de dialise', 'dialysepflichtigkeit', 'dialysepflichtig', 'dialysis', 'haemodialysis', 'hemodialysis', 'dialise', 'hemodialise', 'dialyse', 'hamodialyse', 'dialisis', 'hemodialisis'] },
  conceptkidneytransplant: {
    kind: 'condition',
    within: 'conceptrenalreplacement',
    phrases: [
      'kidney transplant', 'kidney transplantation', 'renal transplant', 'renal transplantation', 'transplante renal', 'transplantado renal', 'transplantada renal',
      'nierentransplantation', 'nierentransplantiert', 'nierentransplantierte', 'trasplante renal', 'trasplantado renal', 'trasplantada renal', 'trasplantado', 'trasplantada',
    ],
  },
  conceptrenalreplacement: {
    kind: 'state',
    phrases: ['renal replacement therapy', 'kidney replacement therapy', 'terapeutica de substituicao renal', 'terapia de substituicao renal', 'nierenersatztherapie', 'nierenersatzverfahren', 'tratamiento renal sustitutivo', 'terapia renal sustitutiva'],
  },
  // Native valves are no prosthesis: 'native valves' reads as 'no prosthetic valve' (FUSED below).
  conceptprostheticvalve: {
    kind: 'condition',
    phrases: ['prosthetic heart valve', 'prosthetic valve', 'valve prosthesis', 'valve replacement', 'protese valvular', 'protese valvular cardiaca', 'herzklappenprothese', 'klappenprothese', 'klappenersatz', 'protesis valvular', 'portador de protesis valvular'],
  },
  conceptmechanicalvalve: {
    kind: 'condition',
    within: 'conceptprostheticvalve',
    phrases: [
      'mechanical prosthetic heart valve', 'mechanical heart valve', 'mechanical valve', 'mechanical prosthetic valve', 'mechanical aortic valve', 'mechanical mitral valve',
      'protese valvular mecanica', 'protese mecanica', 'valvula mecanica', 'mechanische herzklappe', 'mechanische klappe', 'mechanischer klappenersatz', 'mechanischem klappenersatz',
      'mechanischer aortenklappenersatz', 'mechanischem aortenklappenersatz', 'mechanischer mitralklappenersatz', 'mechanischem mitralklappenersatz', 'protesis valvular mecanica', 'protesis mecanica',
    ],
  },
  conceptmitralstenosis: { kind: 'condition', phrases: ['mitral stenosis', 'mitral valve stenosis', 'estenose mitral', 'estenose mitralica', 'mitralstenose', 'mitralklappenstenose', 'estenosis mitral'] },
  concepttia: {
    kind: 'condition',
    phrases: ['transient ischaemic attack', 'transient ischemic attack', 'tia', 'acidente isquemico transitorio', 'ait', 'transitorische ischamische attacke', 'ataque isquemico transitorio', 'accidente isquemico transitorio'],
  },
  conceptintracranialhaemorrhage: {
    kind: 'condition',
    phrases: [
      'intracranial haemorrhage', 'intracranial hemorrhage', 'intracerebral haemorrhage', 'intracerebral hemorrhage', 'hemorragia intracraniana', 'hemorragia intracerebral',
      'intrakranielle blutung', 'hirnblutung', 'hemorragia intracraneal', 'hemorragia cerebral',
    ],
  },
  conceptatrialfibrillation: {
    kind: 'condition',
    phrases: ['atrial fibrillation', 'af', 'afib', 'a-fib', 'fibrilhacao auricular', 'fibrilhacao atrial', 'fibrilacao atrial', 'vorhofflimmern', 'vhf', 'fibrilacion auricular', 'fibrilacion atrial'],
  },
  conceptanticoagulant: {
    kind: 'state',
    medicine: true,
    phrases: [
      'oral anticoagulant', 'oral anticoagulation', 'anticoagulant', 'anticoagulants', 'anticoagulation', 'anticoagulated', 'doac', 'noac', 'vka', 'vitamin k antagonist',
      'hipocoagulacao', 'hipocoagulado', 'hipocoagulada', 'anticoagulacao', 'anticoagulado', 'anticoagulada', 'anticoagulante', 'anticoagulacion', 'anticoagulantes',
      'orale antikoagulation', 'antikoagulation', 'antikoaguliert', 'antikoagulans', 'doak', 'noak', 'avk', 'aco',
      'warfarin', 'warfarina', 'acenocoumarol', 'acenocumarol', 'sintrom', 'phenprocoumon', 'fenprocumona', 'marcumar', 'marcoumar', 'falithrom',
      'apixaban', 'apixabano', 'eliquis', 'rivaroxaban', 'rivaroxabano', 'xarelto', 'edoxaban', 'edoxabano', 'lixiana', 'dabigatran', 'dabigatrano', 'pradaxa',
    ],
  },
  conceptstroke: { kind: 'condition', phrases: ['ischaemic stroke', 'ischemic stroke', 'avc isquemico', 'ictus isquemico', 'ischamischer schlaganfall', 'hirninfarkt', 'apoplex', 'apoplexie', 'stroke', 'cerebrovascular accident', 'acidente vascular cerebral', 'avc', 'schlaganfall', 'ictus', 'accidente cerebrovascular'] },
  conceptmyocardialinfarction: {
    kind: 'condition',
    phrases: ['myocardial infarction', 'heart attack', 'enfarte agudo do miocardio', 'enfarte do miocardio', 'infarto do miocardio', 'herzinfarkt', 'myokardinfarkt', 'infarto agudo de miocardio', 'infarto de miocardio'],
  },
};

/** Concepts that cannot both hold for one patient: a record saying one settles the other as absent. */
const EXCLUSIVE: string[][] = [
  ['conceptdiabetestype1', 'conceptdiabetestype2'],
  ['conceptmalesex', 'conceptpregnancy'],
  ['conceptmalesex', 'conceptbreastfeeding'],
  ['conceptpostmenopause', 'conceptpregnancy'],
];

export const conceptKind = (token: string): ConceptKind => CONCEPTS[token]?.kind ?? 'condition';
export const conceptOf = (token: string): Concept | undefined => CONCEPTS[token];
export const isConcept = (word: string) => word in CONCEPTS;
export const exclusiveWith = (token: string): string[] => EXCLUSIVE.filter((group) => group.includes(token)).flatMap((group) => group.filter((t) => t !== token));

const PHRASES = Object.entries(CONCEPTS)
  .flatMap(([token, { phrases }]) => phrases.map((phrase) => ({ token, phrase })))
  // Longest first, so 'type 2 diabetes mellitus' wins over 'type 2 diabetes'.
  .sort((a, b) => b.phrase.length - a.phrase.length);

const PATTERN = new RegExp(`(?<![a-z0-9])(${PHRASES.map((p) => p.phrase.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})(?![a-z0-9])`, 'g');
const TOKEN = new Map(PHRASES.map((p) => [p.phrase, p.token]));

/** Where a (normalised) text names a concept, longest phrase first: for finding what a text says, not replacing it. */
export function conceptMentions(normalised: string): { token: string; index: number; length: number }[] {
  return [...normalised.matchAll(PATTERN)].map((m) => ({ token: TOKEN.get(m[0])!, index: m.index, length: m[0].length }));
}

/** Words that fuse a negation or 'former' into a concept ('Nichtraucher', 'ex-fumador', 'nonsmoker'), pulled apart. */
const FUSED: [RegExp, string][] = [
  [/(?<![a-z])nichtraucher(in)?\b/g, 'nicht raucher'],
  [/(?<![a-z])nieraucher(in)?\b/g, 'nie raucher'],
  [/(?<![a-z])non-?smok(er|ing)\b/g, 'non smok$1'],
  [/(?<![a-z])(?:ex|antigo|antiga)-?(fumador|fumadora|fumante|smoker|raucher|raucherin)\b/g, 'ex $1'],
  [/(?<![a-z])exraucher(in)?\b/g, 'ex raucher'],
  [/(?<![a-z])(?:native valves?|valvulas nativas|valvula nativa|nativklappen|native klappen)\b/g, 'no prosthetic valve'],
  // A prefix makes another word: 'pré-biológico' (the screening before a biologic) is no biologic.
  [/(?<![a-z])(pre|vor|pos|post)-(?=[a-z])/g, '$1'],
  // 'V. a.' (Verdacht auf) leaves a diagnosis open.
  [/(?<![a-z])v\. ?a\.(?= )/g, 'verdacht'],
  // 'Non-valvular' describes a kind of atrial fibrillation; it negates nothing.
  [/(?<![a-z])(?:non|nao|no|nicht)[- ]?valvula(?:r|re|ren)\b/g, 'nonvalvular'],
  [/(?<![a-z])(?:nao|no)-(fumador|fumadora|fumante)\b/g, 'nao $1'],
];

/** Normalised text with every known concept phrase replaced by its token. */
export function withConcepts(normalised: string): string {
  const unfused = FUSED.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), normalised);
  return unfused.replace(PATTERN, (phrase) => TOKEN.get(phrase) ?? phrase);
}
