// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * The scope of a statement: whether what a clause says is of this patient now, or negated, past, of someone else,
 * hypothetical, planned or uncertain ('if I weigh 250 pounds', 'another A1c in 4 months', 'last time it was 180
 * over 95', 'my mother had…', 'it runs around 120 at home'). A value becomes a structured line only from a clause
 * of this patient now. Trigger words are data, per language, on folded text (lower case, no accents), after the
 * ConText algorithm's idea: a trigger reaches the rest of its clause.
 */
import type { Language } from '../../../contract/constants.js';
import { wordsPattern } from './text.js';

export type Scope = 'negated' | 'past' | 'family' | 'hypothetical' | 'planned' | 'uncertain' | 'stopped' | 'changed';

const TRIGGERS: Record<Scope, Record<Language, string[]>> = {
  negated: {
    en: ['no', 'not', "n't", 'never', 'denies', 'denied', 'without', 'negative for', 'none'],
    pt: ['nao', 'nunca', 'nega', 'negou', 'sem', 'nenhum', 'nenhuma', 'negativo para'],
    de: ['kein', 'keine', 'keinen', 'nicht', 'nie', 'niemals', 'verneint', 'ohne'],
    es: ['no', 'nunca', 'niega', 'nego', 'sin', 'ningun', 'ninguna', 'negativo para'],
  },
  past: {
    en: ['yesterday', 'last night', 'this morning', 'had', 'in march', 'at the pharmacy', 'in the er', 'at the er', 'in the hospital', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'last time', 'last visit', 'last year', 'last month', 'last week', 'ago', 'previously', 'used to', 'in the past', 'history of', 'before', 'at one point', 'when you went', 'when i went', 'when he went', 'when she went', 'was up to', 'went up to'],
    pt: ['ontem', 'esta manha', 'tinha', 'teve', 'era', 'na farmacia', 'na urgencia', 'da ultima vez', 'na ultima consulta', 'no ano passado', 'no mes passado', 'na semana passada', 'ha', 'antes', 'anteriormente', 'antigamente', 'costumava', 'historia de'],
    de: ['gestern', 'heute morgen', 'hatte', 'war', 'in der apotheke', 'in der notaufnahme', 'letztes mal', 'beim letzten mal', 'letzte woche', 'letzten monat', 'letztes jahr', 'vor', 'fruher', 'vorher', 'damals', 'zuvor'],
    es: ['ayer', 'esta manana', 'tenia', 'tuvo', 'era', 'en la farmacia', 'en urgencias', 'la ultima vez', 'en la ultima consulta', 'el ano pasado', 'el mes pasado', 'la semana pasada', 'hace', 'antes', 'anteriormente', 'solia'],
  },
  family: {
    en: ['mother', 'father', 'mom', 'dad', 'sister', 'brother', 'son', 'daughter', 'wife', 'husband', 'grandmother', 'grandfather', 'aunt', 'uncle', 'cousin', 'family'],
    pt: ['mae', 'pai', 'irma', 'irmao', 'filho', 'filha', 'esposa', 'marido', 'avo', 'tia', 'tio', 'primo', 'prima', 'familia'],
    de: ['mutter', 'vater', 'schwester', 'bruder', 'sohn', 'tochter', 'ehefrau', 'ehemann', 'frau', 'mann', 'oma', 'opa', 'tante', 'onkel', 'familie'],
    es: ['madre', 'padre', 'hermana', 'hermano', 'hijo', 'hija', 'esposa', 'esposo', 'marido', 'abuela', 'abuelo', 'tia', 'tio', 'primo', 'prima', 'familia'],
  },
  hypothetical: {
    en: ['if', 'would', 'could', 'should', 'might', 'in case', 'unless', 'whether', 'goal', 'target', 'aim', 'want it', 'want to get', 'trying to get', 'less than', 'under', 'below', 'above', 'greater than', 'more than', 'at least', 'when'],
    pt: ['se', 'seria', 'poderia', 'deveria', 'caso', 'objetivo', 'alvo', 'meta', 'menos de', 'abaixo de', 'acima de', 'mais de', 'pelo menos', 'quando'],
    de: ['wenn', 'falls', 'wurde', 'konnte', 'sollte', 'ziel', 'zielwert', 'unter', 'uber', 'mindestens', 'weniger als', 'mehr als'],
    es: ['si', 'seria', 'podria', 'deberia', 'en caso', 'objetivo', 'meta', 'menos de', 'por debajo de', 'por encima de', 'mas de', 'al menos', 'cuando'],
  },
  planned: {
    en: ['will', "'ll", 'going to', 'gonna', 'plan', 'schedule', 'recheck', 'repeat', 'another', 'next time', 'order', 'check it', 'in a few', 'follow up'],
    pt: ['vou', 'vamos', 'vai', 'irei', 'pedir', 'repetir', 'outra', 'outro', 'proxima', 'daqui a', 'controlar'],
    de: ['werde', 'werden', 'wird', 'kontrollieren', 'wiederholen', 'nochmal', 'nachste', 'nachsten', 'in einer', 'in zwei'],
    es: ['voy a', 'vamos a', 'va a', 'pedir', 'repetir', 'otra', 'otro', 'proxima', 'proximo', 'dentro de', 'controlar'],
  },
  stopped: {
    en: ['stop', 'stopped', 'stopping', 'hold', 'holding', 'discontinue', 'discontinued', 'avoid', 'quit', 'no longer', 'decided against', 'instead of', 'come off', 'taper off', 'wean off'],
    pt: ['parar', 'parou', 'pare', 'suspender', 'suspendeu', 'suspenda', 'deixar de', 'deixou de', 'deixe de', 'evite', 'evitar', 'em vez de', 'ja nao'],
    de: ['absetzen', 'abgesetzt', 'setzen sie', 'pausieren', 'pausiert', 'vermeiden', 'aufgehort', 'nicht mehr', 'statt', 'anstatt'],
    es: ['suspender', 'suspendio', 'suspenda', 'dejar de', 'dejo de', 'deje de', 'evite', 'evitar', 'en vez de', 'ya no'],
  },
  changed: {
    en: ['loss', 'lost', 'lose', 'gain', 'gained', 'up', 'down', 'more', 'less', 'went from', 'increase', 'increased', 'decrease', 'decreased', 'drop', 'dropped', 'change', 'difference', 'peaks', 'peak', 'exercise', 'after', 'ratio', 'keep', 'needs to be', 'should be', 'want', 'goal'],
    pt: ['perda', 'perdeu', 'perder', 'ganhou', 'ganho', 'aumento', 'aumentou', 'subiu', 'desceu', 'baixou', 'mais', 'menos', 'diferenca', 'esforco', 'apos', 'depois', 'manter', 'deve ser'],
    de: ['abgenommen', 'zugenommen', 'verloren', 'mehr', 'weniger', 'gestiegen', 'gesunken', 'anstieg', 'abfall', 'belastung', 'halten', 'sollte'],
    es: ['perdida', 'perdio', 'perder', 'gano', 'aumento', 'subio', 'bajo', 'mas', 'menos', 'diferencia', 'esfuerzo', 'despues', 'mantener', 'debe ser'],
  },
  uncertain: {
    en: ['about', 'around', 'roughly', 'approximately', 'maybe', 'probably', 'i think', 'not sure', 'runs', 'running', 'usually', 'normally', 'typically', 'at home', 'sometimes', 'somewhere', 'between', 'or so', 'ish', 'guess'],
    pt: ['cerca de', 'mais ou menos', 'aproximadamente', 'talvez', 'provavelmente', 'acho que', 'nao sei', 'costuma', 'normalmente', 'em casa', 'as vezes', 'entre', 'uns', 'umas'],
    de: ['etwa', 'ungefahr', 'circa', 'ca', 'vielleicht', 'wahrscheinlich', 'ich glaube', 'weiss nicht', 'normalerweise', 'meistens', 'zu hause', 'manchmal', 'zwischen'],
    es: ['cerca de', 'mas o menos', 'aproximadamente', 'unos', 'unas', 'quizas', 'tal vez', 'probablemente', 'creo que', 'no se', 'suele', 'normalmente', 'en casa', 'a veces', 'entre'],
  },
};

const PATTERNS = Object.fromEntries(
  Object.entries(TRIGGERS).map(([scope, byLanguage]) => [scope, Object.fromEntries(Object.entries(byLanguage).map(([l, list]) => [l, wordsPattern(list)]))]),
) as Record<Scope, Record<Language, RegExp>>;

/** Words and marks that end a clause: a trigger does not reach past them. */
const CLAUSE_BREAK: Record<Language, RegExp> = {
  en: /[,;:]|(?<![\p{L}])(?:but|and|so|which|because|though|although|then|whereas|while)(?![\p{L}])/gu,
  pt: /[,;:]|(?<![\p{L}])(?:mas|e|portanto|porque|embora|entao|enquanto)(?![\p{L}])/gu,
  de: /[,;:]|(?<![\p{L}])(?:aber|und|also|weil|obwohl|dann|wahrend)(?![\p{L}])/gu,
  es: /[,;:]|(?<![\p{L}])(?:pero|y|asi que|porque|aunque|entonces|mientras)(?![\p{L}])/gu,
};

/** The clause of a folded sentence around the span [from, to): from the break before it to the break after it. */
export function clauseAround(folded: string, from: number, to: number, language: Language): { start: number; end: number } {
  const breaks = breaksOf(folded, language);
  let start = 0;
  let end = folded.length;
  // The last break ending at or before `from`, and the first starting at or after `to` (binary searches: a long
  // sentence read for many values must not be scanned from its start each time).
  let lo = 0;
  let hi = breaks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (breaks[mid]!.end <= from) {
      start = breaks[mid]!.end;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  lo = 0;
  hi = breaks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (breaks[mid]!.at >= to) {
      end = breaks[mid]!.at;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return { start, end };
}

/** The clause breaks of the sentence read last, kept while the same sentence is asked about again. */
let cached: { text: string; language: Language; breaks: { at: number; end: number }[] } | undefined;
function breaksOf(folded: string, language: Language): { at: number; end: number }[] {
  if (cached?.text === folded && cached.language === language) return cached.breaks;
  const breaks = [...folded.matchAll(CLAUSE_BREAK[language])].map((m) => ({ at: m.index!, end: m.index! + m[0].length }));
  cached = { text: folded, language, breaks };
  return breaks;
}

/** The scopes a folded clause carries; an empty set is a statement of this patient now. */
export function scopesOf(foldedClause: string, language: Language): Set<Scope> {
  // 'I would like to start…', 'I'd like you to…': an intention said politely, not a hypothesis.
  // 'To see if the bones have healed' is a purpose, not a condition.
  const clause = (language === 'en' ? foldedClause.replace(/(?:\bwould|'d) like\b/g, 'intend') : foldedClause).replace(
    /(?<![\p{L}])(?:(?:to )?see (?:if|whether)|para ver se|para ver si|ob sich|um zu sehen, ob)(?![\p{L}])/gu,
    'see',
  );
  const found = new Set<Scope>();
  for (const scope of Object.keys(PATTERNS) as Scope[]) if (PATTERNS[scope][language].test(clause)) found.add(scope);
  // "isn't", "don't": the negation is part of the word before it.
  if (language === 'en' && /n['’]t(?![\p{L}])/u.test(clause)) found.add('negated');
  return found;
}

/** The scopes of the clause of a folded sentence that holds the span [from, to). */
export function scopesAround(folded: string, from: number, to: number, language: Language): Set<Scope> {
  const clause = clauseAround(folded, from, to, language);
  return scopesOf(folded.slice(clause.start, clause.end), language);
}

/** A time said anywhere in a sentence ('Two weeks ago, blood pressure 150/95') reaches all of it. */
export function sentenceIsPast(foldedSentence: string, language: Language): boolean {
  return PATTERNS.past[language].test(foldedSentence);
}
