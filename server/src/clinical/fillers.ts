/**
 * What a note leaves out of what was said: hesitations ('um', 'äh'), backchannels ('mm-hmm', 'okay'), a speech
 * engine's wake words ('hey dragon') and a word said twice in a row ('your, your medications'). Only words that
 * carry nothing are taken out; the lists are data, per language, matched whole-word and case-insensitively.
 */
import type { Language } from '../../../contract/constants.js';

const FILLERS: Record<Language, string[]> = {
  en: ['um', 'umm', 'uh', 'uhm', 'er', 'erm', 'hmm', 'hm', 'mm', 'mmm', 'mm-hmm', 'mhm', 'uh-huh', 'huh', 'ah', 'okay', 'ok', 'alright', 'all right'],
  pt: ['hum', 'hã', 'ãh', 'eh', 'ah', 'oh', 'hmm', 'ok', 'okay'],
  de: ['äh', 'ähm', 'öh', 'hm', 'hmm', 'mhm', 'ah', 'oh', 'okay', 'ok', 'naja', 'na ja'],
  es: ['eh', 'em', 'ehm', 'mmm', 'hmm', 'ah', 'oh'],
};

/**
 * Words that are fillers only when set apart by commas or opening a sentence ('you know, it hurts'), and carry
 * meaning elsewhere ('do you know your numbers', 'I'm not well', 'este medicamento').
 */
const SET_APART: Record<Language, string[]> = {
  en: ['you know', 'i mean', 'like', 'well', 'so', 'sort of', 'kind of', 'yeah', 'right', 'now', 'oh'],
  pt: ['pronto', 'olhe', 'pois', 'quer dizer', 'digamos', 'portanto', 'então', 'bem', 'sabe'],
  de: ['also', 'sozusagen', 'halt', 'quasi', 'ja', 'gut', 'so', 'wissen sie'],
  es: ['vale', 'o sea', 'pues', 'bueno', 'este', 'bien', 'mire', 'sabe'],
};

const escapeRegExp = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const PATTERNS = Object.fromEntries(
  Object.entries(FILLERS).map(([l, list]) => [
    l,
    // The word with the comma or stop that set it apart ('um, how long' → 'how long').
    new RegExp(
      `(?<![\\p{L}\\d'-])(?:${[...list]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|')})(?![\\p{L}\\d'-])(?:\\s*[,.…]+)?`,
      'giu',
    ),
  ]),
) as Record<Language, RegExp>;

const SET_APART_PATTERNS = Object.fromEntries(
  Object.entries(SET_APART).map(([l, list]) => [l, new RegExp(`(^|[,.;]\\s*)(?:${list.map(escapeRegExp).join('|')})\\s*,`, 'giu')]),
) as Record<Language, RegExp>;

/** A word said again straight after itself, with or without a comma ('i, i just', 'the the'); numbers excepted. */
const REPEATED = /(?<![\p{L}\d'-])(\p{L}[\p{L}'’]*)(?:\s*,)?\s+\1(?![\p{L}\d'-])/giu;

const NUMBER_WORD =
  /^(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|um|uma|dois|duas|tr[eê]s|quatro|cinco|seis|sete|oito|nove|dez|vinte|trinta|quarenta|cinquenta|sessenta|setenta|oitenta|noventa|cem|cento|mil|uno|una|dos|cuatro|siete|ocho|nueve|diez|veinte|treinta|cuarenta|sesenta|ochenta|ciento|eins|zwei|drei|vier|f[uü]nf|sechs|sieben|acht|neun|zehn|zwanzig|drei[sß]ig|vierzig|f[uü]nfzig|sechzig|siebzig|achtzig|neunzig|hundert|tausend)$/i;

/** The short words a speaker stumbles on and says again ('I-I think', 'th-the'). */
const STAMMERED_ON = /^(?:i|i'd|i'm|i'll|i've|you|your|we|we're|the|that|this|they|it|it's|he|she|my|what|when|and|but)$/;

/** The sentence without its fillers, repeated words said once, spaces and capitals tidied. */
export function withoutFillers(sentence: string, language: Language): string {
  // A word broken off and said again ('I f- felt', 'a refill- actually'): the broken piece goes.
  // A stammered start said again at once ('I-i'd like', 'y-you know', 'th-the'): the first go goes, only before the
  // short words people stammer on, never inside a name or a hyphenated word ('co-codamol', 'T-tube', 'so-so').
  let text = sentence
    .replace(WAKE_WORDS, ' ')
    .replace(/(?<![\p{L}\d-])(\p{L}{1,2})-([\p{L}'’]+)(?![\p{L}\d-])/gu, (all, piece: string, word: string) => {
      const p = piece.toLowerCase();
      const w = word.toLowerCase();
      return STAMMERED_ON.test(w) && w.startsWith(p) && (w.length > p.length || p === 'i') ? word : all;
    })
    .replace(/(?<![\p{L}\d])\p{L}{1,4}-(?=\s|$)/gu, ' ')
    .replace(PATTERNS[language], ' ');
  for (let i = 0; i < 3; i++) text = text.trimStart().replace(SET_APART_PATTERNS[language], '$1');
  // A number said twice is left to the number reader ('ninety ninety seven' is no 97, 'twenty twenty' may be two).
  for (let i = 0; i < 3 && REPEATED.test(text); i++) text = text.replace(REPEATED, (all, word: string) => (NUMBER_WORD.test(word) ? all : word));
  text = text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/^[\s,.;:]+/, '')
    .replace(/([,;:])(?=[.!?]$)/, '')
    .replace(/,\s*,/g, ',')
    .trim();
  // A sentence whose opening filler went keeps a capital; one said in lower case throughout stays so.
  const opened = /^\p{Lu}/u.test(sentence.trimStart()) || !sentence.trimStart().startsWith(text.slice(0, 1));
  return opened ? text.replace(/^\p{Ll}/u, (c) => c.toUpperCase()) : text;
}

/** What may come before the command: hesitations, 'okay', 'so' (one way only to read them: no backtracking). */
const HESITATIONS = String.raw`(?:(?:so|and|okay|ok|alright|all right|well|um+|uh+|er|erm|hmm)[\s,.]+)*`;
const BEFORE_COMMAND = String.raw`^[\s,.]*${HESITATIONS}`;
/** A speech assistant's wake words ('hey dragon', 'hey, dax'), with the commas and stops after them. */
const WAKE = String.raw`(?:hey|hi|ok|okay)[\s,.]+(?:dragon|dax|assistant|scribe)(?![\p{L}\d])[\s,.]*`;
const WAKE_WORDS = new RegExp(`(?<![\\p{L}\\d])${WAKE}`, 'giu');

/**
 * A sentence said to a speech assistant about the record rather than about the patient ('hey dragon, show me the
 * vital signs', 'finalize the note', 'order the medications discussed', a wake word alone, a mention of DAX): no
 * part of the consultation. What is dictated after a wake word ('hey dragon, ms. Thompson is a 43 year old female
 * …', 'hey dragon, order amoxicillin 500 mg … for 10 days') is the note's, and only the wake words leave it.
 * 'Show me the …' only of the record's data, and only as the whole sentence ('show me the rash' is said to the
 * patient).
 */
const ASSISTANT_COMMAND = new RegExp(
  `(?:^|[\\s,.])(?:finali[sz]e|sign|close) (?:the|my) note(?![\\p{L}])|(?<![\\p{L}])dax(?![\\p{L}])|` +
    `${BEFORE_COMMAND}(?:${WAKE}${HESITATIONS})?(?:` +
    `show me the (?:[\\w-]+ ){0,3}(?:vital signs|vitals|readings|labs|lab results|results|x-ray|xray|x-rays|echo|echocardiogram|ecg|ekg|imaging|report|blood pressure|a1c|mri|ct|ct scan|scan|ultrasound|strep|strep test|titer|titre|culture|swab|panel)[\\s.!]*$|` +
    `(?:finali[sz]e|sign|close) (?:the|my) report[\\s.!]*$|` +
    `order (?:all )?(?:the )?(?:medications?|meds|procedures?|tests|labs|orders|referrals?)(?: and (?:the )?(?:medications?|meds|procedures?|tests|labs|orders|referrals?))? (?:we )?(?:discussed|talked about|mentioned)(?![\\p{L}])|` +
    `$)`,
  'iu',
);

export const isAssistantCommand = (sentence: string) => ASSISTANT_COMMAND.test(sentence);

/** Whether nothing is left of a sentence once its fillers are out. */
export const onlyFillers = (sentence: string, language: Language) => !/[\p{L}\d]/u.test(withoutFillers(sentence, language));
