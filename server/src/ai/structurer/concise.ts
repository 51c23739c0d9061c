/**
 * A sentence said aloud, written the way a note writes it, by rules that cannot change what it means: the words
 * that only link speech ('And so, …', 'E então …') go, and a clinician's plan said in the first person becomes
 * the instruction it is ('I'm gonna go ahead and prescribe meloxicam' → 'Prescribe meloxicam'). Only a verb of a
 * short list of what clinicians do is turned round, and only after a phrase that states the plan as decided: a
 * plan said as a possibility ('I might increase …', 'we could try …') keeps its words.
 */
import type { Language } from '../../../../contract/constants.js';
import { fold } from '../../clinical/text.js';

/**
 * Words that open a spoken sentence and link it to the last, and the words after which they carry meaning and stay
 * ('so far', 'so did my brother', 'pois não'; 'É gota' opens with 'é', never 'e', as accents are kept here). Words
 * of sequence or time ('then', 'now', 'agora', 'dann', 'luego') stay: 'Then stop it' says when, 'Now you take
 * 20 mg' says a dose changed; only before a question ('and then so tell me', 'then does it spread') is 'then'
 * linking. German's 'deshalb', 'also', 'jetzt' put the verb before its subject, so without them a statement reads
 * as an order or a question: only 'und' and 'aber' go.
 */
const LINKING: Record<Language, RegExp> = {
  en: /^(?:and|but|then(?= (?:so|does|did|tell|how|what|where|when|why|any|have you|has it|can you|could you|would you)\b)|so(?! (?:far|much|many|long|bad|good|that|to|it is|is|did|does|do|was|were|am|are|have|has|had|can|could|will|would)\b)|also|anyway|therefore|well(?=,? (?:i|i'm|i'd|i'll|we|we'll|you|let|let's|it|it's|that|the|your|my)\b))(?=[\s,])[\s,]*/iu,
  pt: /^(?:e|mas|então|pois(?! não)|portanto|por isso)(?=[\s,])[\s,]*/iu,
  de: /^(?:und|aber)(?=[\s,])[\s,]*/iu,
  es: /^(?:y|pero|entonces|pues|por eso|así que)(?=[\s,])[\s,]*/iu,
};

/** What a clinician decides to do, as the verbs a plan's instruction starts with. */
const PLAN_VERBS: Partial<Record<Language, string>> = {
  en: 'prescribe|start|restart|increase|decrease|reduce|continue|stop|discontinue|hold|taper|switch|change|add|order|repeat|recheck|check|obtain|draw|arrange|schedule|book|request|refer|send|see|follow up|give|put|try|recommend|refill|renew|monitor|keep',
  pt: 'receitar|prescrever|pedir|requisitar|marcar|encaminhar|referenciar|aumentar|reduzir|diminuir|manter|suspender|parar|iniciar|começar|repetir|fazer|rever|reavaliar|passar',
  es: 'recetar|prescribir|pedir|solicitar|derivar|aumentar|reducir|disminuir|mantener|suspender|iniciar|empezar|comenzar|repetir|hacer|revisar|citar|programar',
};

/** The first-person phrases that state a plan as decided, with what may follow them before the verb. */
const DECIDED: Partial<Record<Language, string>> = {
  en: "(?:i|we)\\s*(?:would like to|'d like to|want to|wanna|am going to|'m going to|are going to|'re going to|am gonna|'m gonna|are gonna|'re gonna|will|'ll)|let's|let us",
  pt: 'vou|vamos|irei|iremos',
  es: 'voy a|vamos a',
};

/**
 * The verbs only a prescriber says of themselves: where the transcript does not say who spoke, 'I'm gonna decrease
 * the insulin when I exercise' or 'I'll order it online' may be the patient's, and 'I'll prescribe' cannot be.
 */
const PRESCRIBER_VERBS: Partial<Record<Language, string>> = {
  en: 'prescribe',
  pt: 'receitar|prescrever',
  es: 'recetar|prescribir',
};

/**
 * What keeps a plan in its own words: a condition, a reservation, a question or the speaker themself ('I'd like to
 * start a statin but let's wait for the labs', 'I would like to try it, what do you think?', 'refer myself').
 */
const NOT_DECIDED: Partial<Record<Language, RegExp>> = {
  en: /(?<![\p{L}'])(?:but|if|unless|though|although|when i|when we|once you|once we|once the|maybe|perhaps|what do you think|myself|ourselves|wait)(?![\p{L}'])|\?/iu,
  pt: /(?<![\p{L}])(?:mas|se|caso|quando|talvez|embora|o que acha|esperar)(?![\p{L}])|\?/iu,
  es: /(?<![\p{L}])(?:pero|si|cuando|quizás|quizas|aunque|qué le parece|que le parece|esperar)(?![\p{L}])|\?/iu,
};

const planPattern = (verbs: Partial<Record<Language, string>>) =>
  Object.fromEntries(
    Object.entries(verbs).map(([l, list]) => [
      l,
      new RegExp(`^(?:${DECIDED[l as Language]})\\s+(?:(?:go ahead and|just|also|then|now|first)\\s+)*(?=(?:${list})(?![\\p{L}\\d-]))`, 'iu'),
    ]),
  ) as Partial<Record<Language, RegExp>>;
const FIRST_PERSON_PLAN = planPattern(PLAN_VERBS);
const PRESCRIBER_PLAN = planPattern(PRESCRIBER_VERBS);

/** 'I want you to take that once a day' is the instruction 'Take that once a day', whatever the verb. */
const DIRECTIVE: Partial<Record<Language, RegExp>> = {
  en: /^(?:i|we)\s*(?:want|would like|'d like|need) you to\s+(?:(?:go ahead and|just|also|continue to)\s+)?(?=\p{L})/iu,
};

/** Phrases that pad speech and say nothing a note needs ('we'll go ahead and get an x-ray'). */
const PADDING: Record<Language, RegExp | undefined> = {
  // Only with its 'and': 'The surgery can go ahead next week' says a decision.
  en: /(?<![\p{L}'])(?:let me go ahead,?\s+(?!and\b)|go ahead and\s+)(?=\p{L})/giu,
  pt: undefined,
  de: undefined,
  es: undefined,
};

/** A new start written with a capital where the sentence as said had one (an engine's lower case stays so). */
export const capitalLike = (said: string, text: string) => (/^\P{L}*\p{Lu}/u.test(said) ? text.replace(/^\p{Ll}/u, (c) => c.toUpperCase()) : text);

/** The sentence without the phrases that pad speech; read before its fillers, which the padding may hide. */
export function withoutPadding(text: string, language: Language): string {
  const padding = PADDING[language];
  return padding ? text.replace(padding, '') : text;
}

/** The sentence without the words that only link it to the one before, or pad it. */
export function withoutLinkingWords(text: string, language: Language): string {
  let out = withoutPadding(text, language);
  for (let i = 0; i < 3; i++) {
    const next = out.replace(LINKING[language], '');
    // A sentence that was nothing but its linking word stays as it was said.
    if (next === out || !/\p{L}/u.test(next)) break;
    out = next;
  }
  return out === text ? text : capitalLike(text, out);
}

/**
 * A sentence of the plan, as an instruction where it was said as a decided first-person plan; any other sentence
 * without its linking words only. `byClinician` when the transcript says the clinician said it; otherwise only a
 * prescriber's verb is turned round, as a patient's 'I'm going to stop smoking' is what they intend, not an order.
 */
export function asInstruction(text: string, language: Language, byClinician: boolean): string {
  const linked = withoutLinkingWords(text, language);
  if (NOT_DECIDED[language]?.test(linked)) return linked;
  const decided = (byClinician ? FIRST_PERSON_PLAN : PRESCRIBER_PLAN)[language];
  const directive = byClinician ? DIRECTIVE[language] : undefined;
  const turned = (decided && linked.replace(decided, '')) || linked;
  const out = turned !== linked ? turned : (directive && linked.replace(directive, '')) || linked;
  // A verb with nothing after it ('We'll see.', 'I'll try.') is no instruction.
  if (out === linked || (out.match(/\p{L}+/gu) ?? []).length < 2) return linked;
  return capitalLike(linked, out);
}

/** A question after what the patient has ('have you had any …', 'tem …', '¿tiene …'): what it names follows. */
const ASKS_IF_ANY: Partial<Record<Language, RegExp>> = {
  en: /^(?:(?:and|so|okay|now)[\s,]+)?(?:have you (?:had|noticed|been having|experienced|felt|seen)|do you have|did you have|are you having|have there been|any)(?:\s+any)?\s+(?<what>[\p{L}\s,'-]+?)(?:,?\s+(?:or anything (?:like that|else)|or anything|at all))*[\s?.]*$/iu,
  pt: /^(?:tem|teve|sente|sentiu|notou)(?:\s+(?:tido|sentido))?(?:\s+(?:algum|alguma|alguns|algumas))?\s+(?<what>[\p{L}\s,'-]+?)[\s?.]*$/iu,
  es: /^¿?(?:tiene|ha tenido|ha notado|nota)(?:\s+(?:algun|alguna|algún|algunos|algunas))?\s+(?<what>[\p{L}\s,'-]+?)[\s?.]*$/iu,
};
/** An answer that only says no (folded, without its stop). */
const ONLY_NO: Partial<Record<Language, RegExp>> = {
  en: /^(?:no|nope|none|nah|not at all|no i have not|no i haven't|i have not|i haven't|no i don't|i don't|no none|no nothing like that|nothing like that)$/u,
  pt: /^(?:nao )?(?:nao|nao tenho|nao tive|nao senti|nada|nenhum|nenhuma|nunca)$/u,
  es: /^(?:no )?(?:no|no tengo|no he tenido|ninguno|ninguna|nada|nunca)$/u,
};
/** Words that make a question about a choice, a limit or a change rather than about whether there is any. */
const LIMITS_OR_CHOICE =
  /(?<![\p{L}])(?:only|just|still|even|anymore|só|somente|solo|sólo|apenas|ainda|todavia|todavía|nur|noch|(?:or|ou|o|oder) (?:is|are|has|have|does|do|did|was|were|just|only|e|é|esta|está|tem|es|tiene|ha|ist|hat|sind))(?![\p{L}])/iu;
const NONE_OF: Partial<Record<Language, string>> = { en: 'No', pt: 'Sem', es: 'Sin' };

/**
 * A question after a symptom answered only 'no', written as the note writes a pertinent negative: 'Have you had
 * any fever or chills? I have not.' → 'No fever or chills.' Only a question that asks whether there is any of
 * something, of four to ten words after its asking words, and an answer of nothing but no; otherwise undefined.
 */
export function pertinentNegative(question: string, answer: string, language: Language): string | undefined {
  const asks = ASKS_IF_ANY[language];
  const no = ONLY_NO[language];
  if (!asks || !no) return undefined;
  const reply = fold(answer).replace(/[.,!]/g, ' ').replace(/\s+/g, ' ').trim();
  if (!no.test(reply)) return undefined;
  const what = asks.exec(question.trim())?.groups?.what?.trim().replace(/,$/, '');
  const words = what?.split(/\s+/) ?? [];
  if (!what || words.length > 8 || /(?<![\p{L}])(?:you|your|i|me|my|we|voce|usted|que|that|which|when|if)(?![\p{L}])/iu.test(what)) return undefined;
  // 'Any fever or just a cough?', 'pain only at night?', 'or has it gone away?': a 'no' answers a choice or a
  // limit, not whether there is any; and a Portuguese or Spanish participle ('Tem tomado a metformina?') asks
  // whether something is done.
  if (LIMITS_OR_CHOICE.test(what) || (language !== 'en' && /^\p{L}+(?:ado|ido|ada|ida)(?![\p{L}])/u.test(what))) return undefined;
  return `${NONE_OF[language]} ${what}.`;
}
