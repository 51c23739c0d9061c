/**
 * A consultation's transcript as a clinician's note would hold it, with no model: its sentences (cut at
 * punctuation, or where an unpunctuated engine's text starts a question or a greeting), small talk left out, a
 * question kept with its short answer, and each sentence placed in Subjective, Objective, Assessment or Plan by
 * its clinical cues (cues.ts); numbers said in words are written in digits. Nothing is added: every sentence is
 * one of the consultation's own, and each keeps where it lies in the transcript.
 */
import type { Language } from '../../../../contract/constants.js';
import type { NoteSection } from '../../../../contract/document-evidence.js';
import { labelledStretches } from '../../../../contract/speakers.js';
import { UNCERTAIN_SPAN } from '../../../../contract/uncertain-words.js';
import {
  ASSESSMENT,
  FIRST_PERSON,
  NO_ANSWER,
  OBJECTIVE,
  OPENING_QUESTION,
  PLAN,
  QUESTION_START,
  RESULTS,
  SMALL_TALK,
  TAKES_ALREADY,
  TIME_AHEAD,
} from './cues.js';
import { namesClinicalThingInAny } from '../../clinical/clinical-words.js';
import { conceptMentions } from '../../clinical/concepts.js';
import { fold, measurementsIn, medicinesIn, namesDiagnosis } from './facts.js';
import { isAssistantCommand, withoutFillers } from '../../clinical/fillers.js';
import { sentenceSpans } from '../../clinical/sentences.js';
import { digitsForSpokenNumbers } from '../../clinical/units.js';
import { asInstruction, capitalLike, pertinentNegative, withoutLinkingWords, withoutPadding } from './concise.js';

/** A note's section; the contract names them, since stored evidence says which section an omission belongs in. */
export type Section = NoteSection;
/**
 * A sentence of the note: its words (digits for numbers), where it sits, and its span in the transcript. `reason`
 * marks the answer to the question that opened the consultation, kept without the question: why the patient came.
 */
export type NoteSentence = { text: string; section: Section; start: number; end: number; reason?: true };
/** `speaker` where the transcript says who spoke (a teleconsultation's labelled lines). */
export type Utterance = { text: string; start: number; end: number; question: boolean; speaker?: 'clinician' | 'patient' };

/**
 * The transcript's sentences with their character spans. Speaker labels ('Patient: …') are not part of any
 * sentence: each speaker's stretch is cut on its own and its sentences carry who said them.
 */
export function utterances(transcript: string, language: Language): Utterance[] {
  return heard(transcript, language).map((u) => ({ ...u, text: showUncertain(u.text) }));
}

/**
 * An uncertain stretch's mark, `[the codeine?]`, is read as `⟦the codeine⸮⟧` while the transcript is cut and
 * placed: the same length (spans stay the transcript's), no question mark that would make a question of it, and
 * no sentence end inside it (its stops are stood in for), so that a mark is never cut in two.
 */
const INNER_STOPS: Record<string, string> = { '.': '\uE000', '!': '\uE001', '?': '\uE002' };
const hideUncertain = (text: string) => text.replace(UNCERTAIN_SPAN, (_m, words: string) => `⟦${words.replace(/[.!?]/g, (c) => INNER_STOPS[c]!)}⸮⟧`);
/** Character by character, so that a rewrite that kept only one side of a mark still shows it; a mark left empty (its filler taken out) goes. */
const showUncertain = (text: string) =>
  text
    .replace(/⟦\s*⸮⟧\s?/g, '')
    .replace(/⟦/g, '[')
    .replace(/⸮⟧/g, '?]')
    .replace(/[\uE000-\uE002]/g, (c) => '.!?'[c.charCodeAt(0) - 0xe000]!);
const HIDDEN_MARK = /⟦|⸮⟧/;

/** utterances() with the uncertain marks hidden (above). */
function heard(said: string, language: Language): Utterance[] {
  const transcript = hideUncertain(said);
  const punctuated = /[.?!]/.test(transcript);
  return labelledStretches(transcript).flatMap((stretch) =>
    utterancesOf(transcript.slice(stretch.start, stretch.end), language, punctuated).map((u) => ({
      ...u,
      start: u.start + stretch.start,
      end: u.end + stretch.start,
      ...(stretch.role ? { speaker: stretch.role } : {}),
    })),
  );
}

function utterancesOf(transcript: string, language: Language, punctuated: boolean): Utterance[] {
  const out: Utterance[] = [];
  // Punctuated text is cut where its sentences end (never inside '37.9' or after 'Mrs.'); an engine's text
  // without punctuation, line by line and then where a question or a statement starts.
  const pieces = punctuated
    ? sentenceSpans(transcript)
    : [...transcript.matchAll(/[^\n]+/g)].map((m) => ({ text: m[0], start: m.index!, end: m.index! + m[0].length }));
  for (const piece of pieces) {
    // A transcript with some punctuation can still hold long stretches an engine or a typist left without any
    // (a whole examination and plan said in one breath): those are cut as unpunctuated text is.
    const unpunctuatedRun = piece.text.split(/\s+/).length > LONG_RUN && !/[,;:]/.test(piece.text);
    const chunks = !punctuated || unpunctuatedRun ? splitUnpunctuated(piece.text, language) : [piece.text];
    let from = 0;
    for (const chunk of chunks) {
      const offset = piece.text.indexOf(chunk, from);
      from = offset + chunk.length;
      const text = chunk.trim();
      if (!/\p{L}/u.test(text)) continue;
      const lead = piece.start + offset + chunk.indexOf(text);
      // Without punctuation a question and its answer stay in one piece, read as one sentence.
      out.push({ text, start: lead, end: lead + text.length, question: punctuated && /\?\s*$/.test(text) });
    }
  }
  return out;
}

/** Words past which a sentence with no stop in it is taken for several said in one breath. */
const LONG_RUN = 30;

/** Words that start a clinician's statement, where an unpunctuated text has a sentence end to put back. */
const OPENERS: Record<Language, RegExp> = {
  en: /^(?:i will|i'll|we will|we'll|i am going to|i'm going to|i am gonna|i'm gonna|i'm just gonna|i'm just going to|listen to your|your (?:heart|lungs?|abdomen|belly|neck|skin|throat|ears?|eyes?) (?:sounds?|is|are|looks?|exam)|i wanna|i want you to|i would like to|i'd like to|i would recommend|i recommend|let's|your blood pressure|your pressure|your vital signs|your vitals|on examination|on (?:your )?(?:physical )?exam|on (?:your )?[a-z]+ exam|for your (?:first|second|third|next|last|primary) problem|as far as your|in terms of your|regarding your|i think|it looks like|i reviewed|looking at your)\b/,
  pt: /^(?:vou|vamos|no exame|ao exame|a tensao|a sua tensao|acho que|parece-me|volte)\b/,
  de: /^(?:ich werde|wir werden|ich verschreibe|ihr blutdruck|der blutdruck|bei der untersuchung|ich denke|kommen sie)\b/,
  es: /^(?:voy a|vamos a|le receto|su tension|la tension|a la exploracion|creo que|vuelva)\b/,
};

/**
 * A last word that binds the next words to it: a negation, a word of condition or cause, a 'that' or a 'to', a
 * subject or an article whose verb or noun is still to come ('no | voy a recetar', 'not because | I think you
 * have cancer', 'last time I'm | looking at your records'). 'And' and 'but' are where speech does turn.
 */
const BINDS: Record<Language, RegExp> = {
  en: /(?<![\p{L}'])(?:no|not|never|don't|didn't|won't|can't|if|when|because|that|to|than|unless|i|i'm|we're|you're|they're|the|a|an|my|your|his|her|our|their|of|with)$/u,
  pt: /(?<![\p{L}])(?:nao|nunca|nem|se|quando|porque|que|eu|o|a|os|as|um|uma|de|do|da|meu|minha|seu|sua|com)$/u,
  de: /(?<![\p{L}])(?:nicht|kein|keine|nie|wenn|falls|weil|dass|zu|ich|wir|der|die|das|den|dem|ein|eine|einen|mein|meine|ihr|ihre|mit|von)$/u,
  es: /(?<![\p{L}])(?:no|nunca|ni|si|cuando|porque|que|yo|el|la|los|las|un|una|de|del|mi|su|con)$/u,
};

/** A negation among the last three words, whose object may be what follows ('you don't have | any fever'). */
const NEGATED_LAST: Record<Language, RegExp> = {
  en: /(?<![\p{L}'])(?:no|not|never|don't|didn't|doesn't|haven't|hasn't|isn't|aren't|without)(?:\s+\S+){0,2}$/u,
  pt: /(?<![\p{L}])(?:nao|nunca|sem|nem)(?:\s+\S+){0,2}$/u,
  de: /(?<![\p{L}])(?:nicht|kein|keine|keinen|nie|ohne)(?:\s+\S+){0,2}$/u,
  es: /(?<![\p{L}])(?:no|nunca|sin|ni)(?:\s+\S+){0,2}$/u,
};

/** A condition opened in the last few words, which the rest of the breath completes ('if it is still high when
 * you come back | I'll increase …'); further back, speech has moved on. */
const CONDITION: Record<Language, RegExp> = {
  en: /(?<![\p{L}'])(?:if|unless)(?:\s+\S+){0,15}$/u,
  pt: /(?<![\p{L}])(?:se|caso)(?:\s+\S+){0,15}$/u,
  de: /(?<![\p{L}])(?:wenn|falls|sofern)(?:\s+\S+){0,15}$/u,
  es: /(?<![\p{L}])(?:si)(?:\s+\S+){0,15}$/u,
};

/** Text with no punctuation, cut before each word that starts a question, a greeting or a clinician's statement. */
function splitUnpunctuated(text: string, language: Language): string[] {
  const words = text.split(/(?=\s)/);
  const chunks: string[] = [];
  let current = '';
  // Words in the current piece, counted as they come: a long monologue must not be split again and again.
  let count = 0;
  let at = 0;
  for (const w of words) {
    const rest = fold(text.slice(at, at + w.length + 30)).trim();
    at += w.length;
    // Never cut after a negation or a word that ties what follows to what came ('no | voy a recetar', 'not because |
    // I think you have cancer'), nor inside a condition still open ('if your pressure is still high | I'll increase').
    // Only the last words can bind what follows: folding the whole growing piece at each word would be quadratic.
    const soFar = fold(current.slice(-200)).trimEnd();
    // English's 'no' before a question is the answer to the last one ('… or wheezing no | have you applied …'):
    // it negates no verb that follows, as Portuguese's and Spanish's do ('no | voy a recetar').
    const answeredNo = language === 'en' && /(?<![\p{L}'])no$/u.test(soFar) && QUESTION_START.en.test(rest);
    const held = !answeredNo && (BINDS[language].test(soFar) || NEGATED_LAST[language].test(soFar) || CONDITION[language].test(soFar));
    const opens = count >= 3 && !held && (QUESTION_START[language].test(rest) || OPENERS[language].test(rest) || rest.search(SMALL_TALK[language]) === 0);
    if (opens) {
      chunks.push(current);
      current = '';
      count = 0;
    }
    current += w;
    if (w.trim()) count++;
  }
  if (current.trim()) chunks.push(current);
  return chunks;
}

/** An intention broken off before saying what ('I'm gonna go ahead and', 'let's'): nothing to write. */
const EMPTY_INTENT: Partial<Record<Language, RegExp>> = {
  en: /^(?:and |so )?(?:i'm gonna|i am gonna|i'm going to|i am going to|we're gonna|we are going to|let's|i will|i'll|we'll)(?: just| go ahead| and)*[\s,.]*$/u,
};

/** Announcing an examination says nothing of its findings ('Let me listen to your chest'). */
const PROCEDURE: Record<Language, RegExp> = {
  en: /^(?:let me|i will just|i'll just|can you lie|could you lie|please lie|(?:i'm (?:gonna|going to)|i want to|i'd like to|let me|i'll) (?:go ahead and )?have you (?:turn|lie|lay|sit|stand|bend|raise|push|pull|squeeze|hold|walk|move|lift|make a fist|straighten|extend|flex|open|close)|(?:i want you to |i'd like you to |can you |could you |please )?(?:put (?:some )?resistance|press here|make a fist|spread your fingers|(?:raise|turn|hold|lift|straighten|extend) your (?:wrist|hand|arm|arms|leg|legs|foot|feet|ankle|knee|elbow|fingers|head))|take a deep breath|breathe in|(?:just )?(?:go ahead and )?(?:take (?:a |a couple of |a few |some )?deep breaths?|bend (?:forward|over|down)|lie (?:back|down)|lay (?:back|down)|sit up|stand up|tilt your|look up|look down|follow my finger|squeeze my|push against|pull against|kick against|press against|resist me|relax your|turn your head|open your mouth|say ah)|let's (?:go ahead and )?(?:take a look|have a look|examine you|do (?:a|the|my|your) (?:quick )?(?:physical )?exam)|i (?:want|would like|'d like) to (?:just )?(?:do|perform) (?:a|my|the|your) (?:quick )?(?:physical )?exam(?:ination)?|i'm (?:gonna|going to) (?:just )?(?:listen to|examine|take a look|have a look|look at|press on|feel your|do (?:a|my|the) (?:quick )?(?:physical )?exam))\b/,
  pt: /^(?:deixe-me|deixe me|vou so|vou auscultar|vou observar|vou examinar|deite-se|respire fundo|inspire)\b/,
  de: /^(?:lassen sie mich|ich hore|ich untersuche|ich schaue|legen sie sich|atmen sie tief)\b/,
  es: /^(?:dejeme|deje que|voy a auscultar|voy a explorar|voy a mirar|tumbese|respire hondo)\b/,
};

/**
 * Whether a sentence only announces an examination or tells the patient how to move for it. Where a speech
 * engine ran the findings on in the same breath ('i'm gonna do a quick exam your lungs are clear'), the sentence
 * says more than that and stays.
 */
function onlyAnnouncesExam(text: string, language: Language): boolean {
  const folded = fold(text);
  const m = folded.match(PROCEDURE[language]);
  if (!m) return false;
  // What follows the announcement: a few words of where ('to your chest', 'for me'), nothing more. A finding after a
  // comma ('Follow my finger, no nystagmus'), a condition ('Lie down if you feel faint'), a number or a time stays.
  const rest = folded.slice(m[0].length);
  return !/[\d,;:]/.test(rest) && !EXAM_REST_SAYS_MORE.test(rest) && (rest.match(/[\p{L}]+/gu) ?? []).length <= 5;
}

/** Words that make what follows an examination's announcement more than where it is done. */
const EXAM_REST_SAYS_MORE =
  /(?<![\p{L}])(?:if|when|while|after|before|until|next|tomorrow|week|weeks|results?|but|there|it's|they're|is|are|was|no|not|se|quando|depois|si|cuando|despues|wenn|nach|nicht|kein)(?![\p{L}])/u;

/**
 * A clinician's question nobody answered (they went on talking), where the transcript has no question mark: only
 * English's asking word order ('do you', 'is there', 'tell me about') tells a question from a statement; 'Toma
 * varfarina' is one.
 */
function unansweredQuestion(text: string, language: Language): boolean {
  if (language !== 'en') return false;
  const folded = fold(text);
  return (
    /^(?:do you|did you|are you|have you|has it|is it|is there|are there|does it|does that|can you|could you|(?:can you |could you )?tell me (?:a (?:little )?(?:bit )?)?(?:more )?about)(?![\p{L}'])/u.test(
      folded,
    ) &&
    !/[\d.!]/.test(folded) &&
    (folded.match(/[\p{L}]+/gu) ?? []).length <= 10
  );
}

/**
 * A clinician's words that only ask (they open with an asking word) and name no number, medicine or diagnosis:
 * 'What do you think has been causing that pain', not 'Did the metformin upset your stomach'.
 */
function asksOnly(text: string, language: Language): boolean {
  const folded = fold(text).replace(/^[¿¡]/, '');
  // 'What makes it worse?' and 'What makes it better?' have the same answer's words: the question tells them apart.
  if (
    /(?<![\p{L}])(?:worse|worst|better|best|help|helps|relieve|relieves|trigger|triggers|pior|piora|melhor|melhora|alivia|schlimmer|besser|hilft|lindert|peor|empeora|mejor|mejora|alivia)(?![\p{L}])/u.test(
      folded,
    )
  )
    return false;
  return QUESTION_START[language].test(folded) && !/\d/.test(folded) && !namesDiagnosis(folded) && medicinesIn([text]).length === 0;
}

/** A sentence without the greeting it opens with ('Good morning, what brings you in?'). */
function withoutGreeting(text: string, language: Language): string {
  const m = fold(text).match(new RegExp(`^(?:${SMALL_TALK[language].source})[s,.;!]*`, 'u'));
  return m && m[0].length < text.length
    ? text
        .slice(m[0].length)
        .trimStart()
        .replace(/^\p{Ll}/u, (c) => c.toUpperCase())
    : text;
}

/** Whether a sentence says nothing once its greetings and courtesies are taken out. */
const GREETS_BY_NAME =
  /^(?:hey|hi|hello|good (?:morning|afternoon|evening)|ola|bom dia|boa tarde|boa noite|hallo|guten (?:morgen|tag|abend)|hola|buenos dias|buenas tardes|buenas noches)[\s,]+(?:(?:mr|mrs|ms|miss|dr|d|sr|sra|frau|herr|senor|senora|dona)\.?\s+)?\p{L}+(?![\p{L}])/u;
function smallTalkOnly(text: string, language: Language): boolean {
  // A bare 'No.' answers the question before it.
  if (NO_ANSWER[language].test(fold(text).replace(/^[¿¡]/, ''))) return false;
  const folded = fold(text).replace(/^[¿¡]/, '');
  const rest = folded
    .replace(new RegExp(SMALL_TALK[language].source, 'gu'), ' ')
    .replace(/[^\p{L}\d]+/gu, ' ')
    .trim();
  const words = rest.split(/\s+/).filter((w) => w.length > 2);
  // A greeting may name whom it greets, right after it ('Hey Lawrence, how're you doing?', 'Bom dia, D. Rosa').
  return words.length === 0 || (words.length === 1 && GREETS_BY_NAME.test(folded) && folded.includes(words[0]!) && !namesClinicalThingInAny(rest));
}

/**
 * The section a sentence belongs in, by its cues in this order: what the patient already takes (history, though
 * 'take' also starts a plan); what will be done, or a time ahead alone ('Control en dos semanas'); a conclusion;
 * findings, measurements and results; a diagnosis named other than in the patient's own words ('It's gout');
 * a medicine with its dose and nobody saying they take it (a prescription read out); else history.
 */
function sectionOf(text: string, language: Language): Section {
  const t = fold(text);
  if (TAKES_ALREADY[language].test(t)) return 'subjective';
  if (PLAN[language].test(t) || TIME_AHEAD[language].test(t)) return 'plan';
  if (ASSESSMENT[language].test(t)) return 'assessment';
  if (OBJECTIVE[language].test(t) || RESULTS[language].test(t)) return 'objective';
  if (namesDiagnosis(t) && !FIRST_PERSON[language].test(t)) return 'assessment';
  if (medicinesIn([text]).some((m) => /\d/.test(m.value))) return 'plan';
  return 'subjective';
}

/**
 * A piece of a speech engine's text (no punctuation, so no question mark) with no speaker that opens with a
 * question: the line holds the question and its answer ('have you had shortness of breath or wheezing no', 'when
 * did it start a day or 2 ago'). Typed or punctuated text marks its questions, and 'What we'll do is …' is no
 * question there: the caller asks only of text without punctuation.
 */
function askedAndAnswered(u: Utterance, said: string, language: Language): boolean {
  return !u.speaker && QUESTION_START[language].test(fold(said));
}

/**
 * Where a question with its answer goes: history, as the patient's answers are, unless it holds a measurement with
 * its number (a finding) or puts a plan as a question ('why don't we start …'). The examination's words a
 * question names ('any swelling to your lips') and what it asks about ('when did it start') make no finding or plan.
 */
function historySection(said: string, language: Language): Section {
  if (Object.keys(measurementsIn([said], language)).length > 0) return 'objective';
  const folded = fold(said);
  return PROPOSES[language].test(folded) && PLAN[language].test(folded) ? 'plan' : 'subjective';
}

/** A plan put as a question ('why don't we start …', 'que tal começar …'). */
const PROPOSES: Record<Language, RegExp> = {
  en: /^(?:why don't we|why dont we|how about (?:we|i|you)|what if we|shall we|should we|can we|could we|would you like (?:me|us) to)\b/,
  pt: /^(?:e se|que tal|porque nao|por que nao)\b/,
  de: /^(?:wie ware es|sollen wir|wollen wir|warum nicht)\b/,
  es: /^(?:que tal|por que no|y si)\b/,
};

/** An answer that starts by agreeing. */
const YES: Record<Language, RegExp> = {
  en: /^(?:yes|yeah|yep|that's right)\b/,
  pt: /^(?:sim|e verdade|exato|exatamente)\b/,
  de: /^(?:ja|genau|stimmt)\b/,
  es: /^(?:si|eso es|exacto|efectivamente)\b/,
};

/** Where a clinician's plan follows a conclusion in the same sentence ('It's gout, so we'll start …'). */
const PLAN_CLAUSE: Record<Language, RegExp> = {
  en: /, (?:(?:so|and|then|and then|so then) )?(?=(?:i'll|i will|we'll|we will|i'm going to|i am going to|let's) )/gu,
  pt: /, (?:(?:por isso|portanto|entao|e|e depois|assim) )?(?=(?:vou|vamos) )/gu,
  de: /, (?:(?:deshalb|daher|also|und|dann) )?(?=(?:ich werde|wir werden|ich verschreibe|ich gebe ihnen|ich uberweise) )/gu,
  es: /, (?:(?:por eso|asi que|entonces|y|pues) )?(?=(?:voy a|vamos a|le receto|le voy a|le pido) )/gu,
};

/** A sentence cut where a plan clause starts after a comma, each part long enough to say something. */
function clauses(u: Utterance, language: Language): Utterance[] {
  const folded = fold(u.text);
  // Cut by the folded text's positions only where folding kept every character in place.
  if (folded.length !== u.text.length) return [u];
  const cuts = [...folded.matchAll(PLAN_CLAUSE[language])].map((m) => m.index! + 1).filter((at) => folded.slice(0, at).split(/\s+/).length >= 4);
  if (!cuts.length) return [u];
  const parts: Utterance[] = [];
  let from = 0;
  for (const at of [...cuts, u.text.length]) {
    const raw = u.text.slice(from, at);
    const text = raw.trim().replace(/^\p{Ll}/u, (c) => c.toUpperCase());
    if (text) {
      const lead = from + raw.indexOf(raw.trim());
      parts.push({ text, start: u.start + lead, end: u.start + lead + raw.trim().length, question: false });
    }
    from = at;
  }
  return parts;
}

/** A sentence of one or two words that names nothing clinical and answers nothing. */
function saysNothing(text: string, language: Language): boolean {
  const folded = fold(text);
  const words = folded.match(/[\p{L}\d]+/gu) ?? [];
  if (words.length > 2 || /\d/.test(folded) || NO_ANSWER[language].test(folded.replace(/^[¿¡]/, ''))) return false;
  return conceptMentions(folded).length === 0 && !namesDiagnosis(folded) && medicinesIn([text]).length === 0;
}

/** A sentence with no number, medicine, diagnosis or clinical word (in any of the four languages): conversation. */
function isConversation(text: string): boolean {
  const folded = fold(text);
  return (
    !/\d/.test(folded) &&
    !namesClinicalThingInAny(folded) &&
    !namesDiagnosis(folded) &&
    conceptMentions(folded).length === 0 &&
    medicinesIn([text]).length === 0
  );
}

/**
 * A sentence as a note writes it, where the transcript was written with punctuation (typed, or by an engine that
 * punctuates): a capital to start, and English's 'I'. Text of an engine without punctuation stays as it came.
 */
function asWritten(text: string, language: Language): string {
  const capital = text.replace(/^([¿¡"'«(]*)(\p{Ll})/u, (_m, lead: string, c: string) => lead + c.toUpperCase());
  return language === 'en' ? capital.replace(/(?<![\p{L}'’-])i(?=(?:['’](?:m|d|ll|ve))?(?![\p{L}'’-]))/gu, 'I') : capital;
}

/**
 * Whether a question is only the consultation's opening one ('What brings you in today?'), asked of nothing in
 * particular: 'What happened after the second dose?' or 'What happened to your mother?' give their answer its sense.
 */
function opensTheConsultation(question: string): boolean {
  const folded = fold(question).replace(/^[¿¡]/, '');
  const m = folded.match(OPENING_QUESTION);
  if (m?.index !== 0) return false;
  const rest = folded.slice(m[0].length).match(/[\p{L}']+/gu) ?? [];
  return rest.length <= 4 && !rest.some((w) => /^(?:to|with|after|when|before|about|of|com|depois|quando|ao|a|mit|nach|als|con|despues|cuando|al)$/.test(w));
}

/** A sentence as the note writes it: a plan as an instruction, and no sentence opening with 'and so'. */
function written(said: string, section: Section, byClinician: boolean, language: Language): string {
  return section === 'plan' ? asInstruction(said, language, byClinician) : withoutLinkingWords(said, language);
}

/** The consultation's sentences placed in the note's sections, in the order they were said. */
export function structure(said: string, language: Language): NoteSentence[] {
  const transcript = hideUncertain(said);
  const punctuated = /[.?!]/.test(transcript);
  const sentences = structureSaid(transcript, language);
  return sentences.map((s) => ({ ...s, text: showUncertain(punctuated ? asWritten(s.text, language) : s.text) }));
}

function structureSaid(transcript: string, language: Language): NoteSentence[] {
  // Only a speech engine's text without punctuation holds a question and its answer in one line.
  const punctuated = /[.?!]/.test(transcript);
  // Hesitations, backchannels and wake words out first: what is left is read for its cues, and a sentence of
  // nothing but 'mm-hmm' or 'okay' is no sentence (its span stays the utterance's).
  const said = heard(transcript, language)
    .filter((u) => !isAssistantCommand(u.text))
    .map((u) => ({ ...u, text: withoutLinkingWords(withoutFillers(withoutPadding(u.text, language), language), language) }))
    .filter((u) => u.text && !smallTalkOnly(u.text, language) && !onlyAnnouncesExam(u.text, language))
    .map((u) => ({ ...u, text: withoutGreeting(u.text, language) }));
  const out: NoteSentence[] = [];
  for (let i = 0; i < said.length; i++) {
    const u = said[i]!;
    // Where the transcript says who spoke, a clinician's words that open a question and are followed by the
    // patient's are a question with its answer, punctuated or not.
    const asks =
      u.question || (u.speaker === 'clinician' && said[i + 1]?.speaker === 'patient' && QUESTION_START[language].test(fold(u.text).replace(/^[¿¡]/, '')));
    if (!asks) {
      // 'Sure.', 'Good.', 'Yeah.' on their own, answering nothing, say nothing.
      if (saysNothing(u.text, language)) continue;
      // What the patient says is their history, whatever its words ('I think it's the stress', 'I take …').
      if (u.speaker === 'patient') {
        const text = digitsForSpokenNumbers(u.text, language);
        if (isConversation(text)) continue;
        out.push({ text, section: 'subjective', start: u.start, end: u.end });
        continue;
      }
      for (const clause of clauses(u, language)) {
        const said = digitsForSpokenNumbers(clause.text, language);
        if (EMPTY_INTENT[language]?.test(fold(said))) continue;
        const section = !punctuated && askedAndAnswered(u, said, language) ? historySection(said, language) : sectionOf(said, language);
        // History is what the patient has and does; a line of it that names nothing clinical is conversation.
        if (section === 'subjective' && isConversation(said)) continue;
        if (section === 'subjective' && u.speaker === 'clinician' && unansweredQuestion(said, language)) continue;
        out.push({ text: written(said, section, u.speaker === 'clinician', language), section, start: clause.start, end: clause.end });
      }
      continue;
    }
    const text = digitsForSpokenNumbers(u.text, language);
    // A question means something only with its answer: kept together when the answer is short ('Does it
    // spread anywhere? To my left arm sometimes.'), left out when none follows.
    const answer = said[i + 1];
    if (!answer || (answer.question && answer.speaker !== 'patient')) continue;
    // Where speakers are known, the clinician going on after their own question answered nothing: the question
    // is left out and what they said next is read on its own ('Shall we look at you? Your vital signs look great.').
    if (u.speaker && answer.speaker === u.speaker) continue;
    const reply = digitsForSpokenNumbers(answer.text, language);
    const long = reply.split(/\s+/).length > 15;
    // A long answer that starts with yes or no confirms or denies what was asked ('Any chest pain? No, I've been
    // walking every day …'): the question is history too, and the answer is read on its own after it.
    const replyFolded = fold(reply);
    const answersYesOrNo = YES[language].test(replyFolded) || NO_ANSWER[language].test(replyFolded);
    // Otherwise a long answer says what it is about on its own ('Where does it hurt? It hurts a lot on the inside
    // of my elbow …'), and a question that names no number, medicine or diagnosis adds nothing to it.
    if (long && !answersYesOrNo && u.speaker === 'clinician' && asksOnly(text, language)) continue;
    if (long && !u.question) {
      // Only taken for a question by who spoke next: the clinician's words are kept, placed by their own cues.
      for (const clause of clauses(u, language)) {
        const said = digitsForSpokenNumbers(clause.text, language);
        const section = sectionOf(said, language);
        out.push({ text: written(said, section, true, language), section, start: clause.start, end: clause.end });
      }
      continue;
    }
    if (long) {
      // ('Six weeks on sertraline now, isn't it? Yes, I take …')
      if (answersYesOrNo) out.push({ text, section: 'subjective', start: u.start, end: u.end });
      continue;
    }
    // The opening question's answer says all on its own ('What brings you in? I've had a cough for two weeks.'):
    // the question folds into it. A short answer ('My back.') keeps the question that gives it its sense.
    if (opensTheConsultation(text) && reply.split(/\s+/).length >= 4 && !NO_ANSWER[language].test(fold(reply))) {
      out.push({ text: capitalLike(text, reply), section: 'subjective', start: u.start, end: answer.end, reason: true });
      i++;
      continue;
    }
    const pair = `${text} ${reply}`;
    if (isConversation(pair) && !NO_ANSWER[language].test(fold(reply))) {
      i++;
      continue;
    }
    // 'Any fever or chills? No.' is written as the note writes it: 'No fever or chills.'
    // Not where a word of it was uncertain: the question and its answer stay as heard.
    const negative = isConversation(text) || HIDDEN_MARK.test(pair) ? undefined : pertinentNegative(text, reply, language);
    if (negative) {
      out.push({ text: negative, section: 'subjective', start: u.start, end: answer.end });
      i++;
      continue;
    }
    // A question and its answer are history, unless the answer is a finding with its number ('Your pressure?
    // 150 over 95'); a 'no' answer is a pertinent negative.
    const section = !NO_ANSWER[language].test(fold(reply)) && Object.keys(measurementsIn([pair], language)).length > 0 ? 'objective' : 'subjective';
    out.push({ text: pair, section, start: u.start, end: answer.end });
    i++;
  }
  return out;
}
