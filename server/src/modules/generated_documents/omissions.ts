/**
 * Said but not in the note: the stretches of a consultation that carry a clinical fact (a measurement with its
 * value, a medicine, a diagnosis, an allergy, a follow-up interval) that the note does not state. Clinician-
 * annotated studies of scribes find omissions about twice as often as inventions; whatever engine wrote the note,
 * these are shown beside it, each placed in the section it belongs to, for the clinician to add or dismiss.
 * A fact counts as in the note when its number (as a note writes it), its medicine's name or its diagnosis is.
 */
import { hasUncertainWords } from '../../../../contract/uncertain-words.js';
import type { Language } from '../../../../contract/constants.js';
import { fold } from '../../clinical/text.js';
import { numbersAsNoted } from '../../clinical/units.js';
import { ALLERGY } from '../../ai/structurer/cues.js';
import { CHRONIC, DIAGNOSES, followUpIn, medicinesIn } from '../../ai/structurer/facts.js';
import { structure, utterances } from '../../ai/structurer/structure.js';
import type { Omission } from '../../../../contract/document-evidence.js';
import { isAssistantCommand, withoutFillers } from '../../clinical/fillers.js';

/** At most this many are listed: past it, the note is not a note of this consultation. */
const MOST = 40;

// Durations and ages are facts too ('for 6 months', 'a 48-year-old'), in the four languages.
const UNIT = String.raw`(?:mg|mcg|µg|g|ml|mmhg|%|kg|lb|bpm|°c|°f|degrees?|units?|mmol\/l|mg\/dl|cm|mm|days?|weeks?|months?|years?|dias?|semanas?|m[eê]s|meses|anos?|tagen?|wochen?|monate?n?|jahren?|d[ií]as|años?)(?![\p{L}])`;
const TIME_UNIT = /(?:day|week|month|year|dia|semana|mes|ano|tag|woche|monat|jahr|ano)\p{L}*$/u;
const VALUE = new RegExp(String.raw`(?<![\d.,/])(\d{2,3}\/\d{2,3}|\d+(?:[.,]\d+)?[\s-]*${UNIT})`, 'giu');
const numberOf = (s: string) => s.match(/\d+(?:[.,/]\d+)*/)?.[0]?.replace(',', '.') ?? '';

/** The facts a (digitised) sentence carries, each with how to recognise it in a note (folded). */
function factsOf(sentence: string, language: Language): { shown: string; seen: (note: string, numbers: Set<string>) => boolean }[] {
  const folded = fold(sentence);
  const facts: { shown: string; seen: (note: string, numbers: Set<string>) => boolean }[] = [];
  for (const m of sentence.matchAll(VALUE)) {
    const n = numberOf(m[0]);
    const time = fold(m[0]).match(TIME_UNIT);
    // A duration is in the note only with its unit: a '6' elsewhere in the note is not 'for 6 months'.
    const seen = time
      ? (note: string) => new RegExp(String.raw`(?<![\d.,])${n.replace('.', '[.,]')}[\s-]*${time[0].slice(0, 3)}`, 'u').test(note)
      : (_note: string, numbers: Set<string>) => numbers.has(n);
    facts.push({ shown: m[0].trim(), seen });
  }
  for (const m of medicinesIn([sentence], language)) {
    const name = fold(m.value.split(' ')[0]!);
    facts.push({ shown: m.value.split(' ')[0]!, seen: (note) => note.includes(name) });
  }
  for (const pattern of [...DIAGNOSES, CHRONIC]) {
    const m = folded.match(pattern);
    if (m && m.index !== undefined) {
      const stem = m[0].slice(0, Math.max(5, m[0].length - 3));
      facts.push({ shown: sentence.slice(m.index, m.index + m[0].length), seen: (note) => note.includes(stem) });
    }
  }
  if (ALLERGY[language].test(folded)) facts.push({ shown: sentence, seen: (note) => /alerg|allerg/.test(note) });
  const followUp = followUpIn([sentence]);
  if (followUp) {
    const interval = followUp.value;
    facts.push({ shown: interval, seen: (note) => note.includes(interval) });
  }
  // In the order the sentence says them.
  return facts.sort((a, b) => sentence.indexOf(a.shown) - sentence.indexOf(b.shown));
}

/**
 * The consultation's fact-carrying stretches that the note does not state, in the order they were said: every
 * sentence said is read (a question with its answer together), including those a note would leave out as
 * conversation, each placed in the section the structurer gives it (history when it gives none).
 */
export function omittedFacts(note: string, transcript: string, language: Language): Omission[] {
  const written = fold(`${note}\n${numbersAsNoted(note, language)}`);
  const numbers = new Set((written.match(/\d+(?:[.,/]\d+)*/g) ?? []).flatMap((n) => [n.replace(',', '.'), ...n.split('/')]));
  const placed = structure(transcript, language);
  const said = utterances(transcript, language).filter((u) => !isAssistantCommand(u.text));
  const out: Omission[] = [];
  for (let i = 0; i < said.length; i++) {
    const u = said[i]!;
    const answer = u.question || (u.speaker === 'clinician' && said[i + 1]?.speaker === 'patient') ? said[i + 1] : undefined;
    const end = answer && answer.text.split(/\s+/).length <= 15 ? answer.end : u.end;
    const raw = transcript
      .slice(u.start, end)
      .replace(/^[^:\n]{1,40}:\s*/gm, '')
      .replace(/\s+/g, ' ')
      .trim();
    const text = numbersAsNoted(withoutFillers(raw, language), language);
    // A sentence with a word the engine was not sure of gives no fact (as in the notes): the note rightly leaves
    // it as heard, marked, or out.
    const missing = hasUncertainWords(text) ? [] : factsOf(text, language).filter((f) => !f.seen(written, numbers));
    if (end !== u.end) i++;
    if (missing.length === 0) continue;
    const section = placed.find((p) => p.start < end && p.end > u.start)?.section ?? 'subjective';
    out.push({ text, section, missing: [...new Set(missing.map((f) => f.shown))], start: u.start, end });
    if (out.length >= MOST) break;
  }
  return out;
}
