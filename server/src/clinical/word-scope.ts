/**
 * What a sentence says about each thing it names: present, negated ('no', 'denies', 'never', 'sem', 'kein',
 * 'niega'), past ('former', 'ex-', 'history of', 'resolved', 'deixou de', 'ehemalig', 'dejó de') or about someone
 * else ('mother with …') or left open ('unknown', 'suspected'). A cue reaches forward over a few words of its own clause, or back from just after the
 * word ('tabagismo: negativo'); 'but', 'mas', 'aber', 'pero' and ';' end a clause. Read on normalised text with
 * concept tokens (clinical-concepts.ts), in the four languages.
 */

import { isAbbreviation } from './sentences.js';

export type Status = 'present' | 'negated' | 'past' | 'other_person' | 'uncertain';

const NEGATION_BEFORE = new Set(
  (
    'no not nor never without none non off denies denied deny negative absence absent free rules ruled ' +
    'nao sem nega negou negado negada nunca nenhum nenhuma nem ausencia ausente ' +
    'kein keine keinen keiner keinem keines nicht ohne verneint nie niemals weder ' +
    'sin niega nego negado ningun ninguna ninguno tampoco jamas descarta descartou descartase'
  ).split(/\s+/),
);
/** 'no' is also Portuguese for 'in the': it reaches only the next few words. */
const SHORT_REACH = new Set(['no', 'nem', 'nor', 'off']);

const NEGATION_AFTER = new Set(
  (
    'none negative denied absent excluded ruled deferred postponed nein negativo negativa negado negada ausente excluido excluida adiado adiada ' +
    'negativ verneint ausgeschlossen zuruckgestellt keiner keine descartado descartada diferido diferida aplazado aplazada ninguno ninguna nenhum nenhuma'
  ).split(/\s+/),
);
/** Short answers that negate only when they close the clause ('Tabagismo: não.', not 'diabetes no controlada'). */
const NEGATION_CLOSING = new Set(['no', 'nao', 'nein', 'keine', 'keiner', 'nicht', 'nunca', 'never']);

const TEST_RESULT_NEGATIVE = new Set(['negative', 'negativo', 'negativa', 'negativ']);
/** What may stand between a test's subject and its result ('pregnancy test in urine today is negative'). */
const TEST_WORDS = new Set(
  'test tests teste testes prueba pruebas screen screening assay result results resultado resultados is was were ist war e foi es fue in en em im de da do del urine urina orina urin serum blood sangue sangre today hoy hoje heute'.split(
    ' ',
  ),
);
/** Words that start the next clause after a test's result. */
const JOINING_CLAUSE = new Set(['and', 'e', 'und', 'y']);

/** Words that join a list a negation reaches across ('no stroke or TIA', 'sem diálise nem transplante'). */
const JOINING = new Set(['or', 'nor', 'and', 'ou', 'nem', 'e', 'oder', 'noch', 'und', 'o', 'ni', 'y']);

const PAST_BEFORE = new Set(
  (
    'former formerly ex previous previously prior past history hx quit stopped discontinued ceased resolved ' +
    'antigo antiga previo previa previamente anterior antecedentes antecedente historia deixou abandonou suspendeu suspensa suspenso ' +
    'ehemalig ehemalige ehemaliger ehemals fruher fruhere fruherer vorgeschichte anamnestisch zn abgesetzt ' +
    'dejo abandono suspendio suspendido suspendida antiguo antigua'
  ).split(/\s+/),
);
const PAST_AFTER = new Set(
  'resolved ago stopped discontinued quit past resolvido resolvida suspenso suspensa suspendida suspendido resuelto resuelta abgeklungen abgesetzt behoben'.split(
    /\s+/,
  ),
);

const OTHER_PERSON = new Set(
  (
    'family mother father sister brother son daughter wife husband grandmother grandfather familiar familiares mae pai irma irmao avo filho filha esposa marido ' +
    'familie mutter vater schwester bruder sohn tochter ehefrau ehemann familienanamnese madre padre hermana hermano abuela abuelo hijo hija esposo'
  ).split(/\s+/),
);

/** Words that leave it open ('smoking: unknown', 'suspected pregnancy'): such a mention settles nothing. */
const UNCERTAIN = new Set(
  (
    'unknown unclear uncertain possible possibly probable probably suspected suspicion questionable desconhecido desconhecida ignorado possivel provavel suspeita suspeito ' +
    'unbekannt unklar moglich moglicherweise verdacht fraglich desconocido desconocida posible probable sospecha dudoso ' +
    // Plans and options are not yet facts: 'consider anticoagulation', 'se plantea inicio de', 'bzgl. Antikoagulation'.
    'consider considering discuss discussed planned plan options candidate considerar ponderar propoe proposta planeado planeada plantea valorar propone ' +
    'erwagen erwogen geplant bzgl bezuglich empfehlen empfohlen desea deseja wishes'
  ).split(/\s+/),
);

const CLAUSE_END = new Set([
  ';',
  '.',
  'but',
  'however',
  'although',
  'though',
  'except',
  'mas',
  'porem',
  'contudo',
  'embora',
  'exceto',
  'aber',
  'jedoch',
  'sondern',
  'ausser',
  'pero',
  'aunque',
  'excepto',
  'salvo',
]);

/** Verbs that carry a negation after the thing they are about ('insulin has not been started', 'dialysis is not indicated'). */
const AUXILIARY = new Set(
  'has have had is are was were be been do does did will ist sind war waren wurde wird hat haben e esta estao foi foram sera tem es estan fue fueron ha han sido'.split(
    /\s+/,
  ),
);
/** A heading, not a statement: 'Smoking status: non-smoker' says nothing by its first word. */
const LABEL_AFTER = new Set(['status', 'estado', 'situacao', 'situacion']);

/** Words within which a cue before a word still reaches it. */
const REACH = 6;

export type ScopedWord = { word: string; status: Status };

/** Each word of a normalised sentence (concept tokens already in) with what the sentence says about it. */
export function scopeWords(sentence: string): ScopedWord[] {
  // A stop after an abbreviation ('bzgl.', 'z. n.') ends no clause: the record's sentences are already split.
  const tokens = (sentence.match(/[a-z0-9]+|[;.]/g) ?? []).filter((t, i, all) => t !== '.' || !isAbbreviation(all[i - 1] ?? ''));
  const headings = headingsIn(sentence);
  return tokens.flatMap((word, i) => {
    if (word === ';' || word === '.') return [];
    return [{ word, status: headings.has(i) ? 'uncertain' : statusAt(tokens, i) }];
  });
}

/**
 * Words that head a value naming them again ('Hábitos tabágicos: ex-fumador', 'Estado tabágico: fumador'): the
 * heading says nothing, the value does. Indices as in `scopeWords`' tokens.
 */
function headingsIn(sentence: string): Set<number> {
  const tokens = sentence.match(/[a-z0-9]+|[;.:]/g) ?? [];
  const headings = new Set<number>();
  let index = -1;
  tokens.forEach((t, at) => {
    if (t !== ':') {
      index++;
      return;
    }
    const word = tokens[at - 1];
    if (!word || word === ':' || CLAUSE_END.has(word)) return;
    for (let j = at + 1; j < tokens.length && !CLAUSE_END.has(tokens[j]!); j++) {
      if (tokens[j] === word) {
        headings.add(index);
        return;
      }
    }
  });
  return headings;
}

function statusAt(tokens: string[], i: number): Status {
  let status: Status = 'present';
  // Back over this clause: the nearest cue decides, a negation over a past one ('no previous insulin').
  for (let j = i - 1, seen = 0; j >= 0 && !CLAUSE_END.has(tokens[j]!); j--) {
    const t = tokens[j]!;
    // Numbers, the list's other items and the words joining them do not take a cue out of reach.
    if (!/^\d+$/.test(t) && !JOINING.has(t) && !t.startsWith('concept')) seen++;
    if (OTHER_PERSON.has(t) && seen <= REACH + 2) return 'other_person';
    if (UNCERTAIN.has(t) && seen <= 4) return 'uncertain';
    if (NEGATION_BEFORE.has(t) && seen <= (SHORT_REACH.has(t) ? 4 : REACH)) return 'negated';
    if (PAST_BEFORE.has(t) && seen <= REACH && status === 'present') status = 'past';
  }
  if (LABEL_AFTER.has(tokens[i + 1] ?? '')) return 'uncertain';
  // A negated verb of which it is the subject: 'insulin has not been started', 'A insulina não foi iniciada'.
  for (let j = i + 1; j < Math.min(tokens.length, i + 4) && !CLAUSE_END.has(tokens[j]!); j++) {
    const negation = (t: string | undefined) => ['not', 'nicht', 'nao', 'no', 'kein', 'keine', 'never', 'nunca', 'nie'].includes(t ?? '');
    // 'has not been' (en, de) or 'não foi' (pt, es: the negation before the verb).
    if ((AUXILIARY.has(tokens[j]!) && negation(tokens[j + 1])) || (negation(tokens[j]) && AUXILIARY.has(tokens[j + 1] ?? ''))) return 'negated';
  }
  // Just after the word: 'tabagismo: negativo', 'smoking – no', 'AVC resolvido'.
  for (let j = i + 1; j < Math.min(tokens.length, i + 6) && !CLAUSE_END.has(tokens[j]!); j++) {
    const t = tokens[j]!;
    if (UNCERTAIN.has(t) && j <= i + 2) return 'uncertain';
    if (NEGATION_AFTER.has(t) && j <= i + 2) return 'negated';
    // A test's result closing its clause: 'Test de embarazo en orina (hoy): negativo'.
    // Only a test of this very thing: 'pregnancy test (urine, today) is negative', never 'T2DM, COVID test negative'
    // nor 'pregnancy test positive, HIV screen negative'. 'Her pregnancy test is negative and she is not
    // breastfeeding' too.
    const ofThis = tokens.slice(i + 1, j).every((w) => TEST_WORDS.has(w));
    if (TEST_RESULT_NEGATIVE.has(t) && ofThis && (j + 1 === tokens.length || CLAUSE_END.has(tokens[j + 1]!) || JOINING_CLAUSE.has(tokens[j + 1]!)))
      return 'negated';
    const closes = j + 1 === tokens.length || CLAUSE_END.has(tokens[j + 1]!);
    if (NEGATION_CLOSING.has(t) && j <= i + 2 && closes) return 'negated';
    // 'Asma en la infancia, resuelta': a word that closes the clause reaches further back than one inside it.
    if (PAST_AFTER.has(t) && status === 'present' && (j <= i + 3 || closes)) status = 'past';
  }
  return status;
}
