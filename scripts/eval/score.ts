/** Every figure of one note against its reference and transcript. Pure: the note is written elsewhere. */
import { decimalsCut, invented, referenceFacts, scoreFacts, wrongValues, type DecimalsCut, type FactScore, type WrongValues } from './note-facts.js';
import { noteBody } from './note-body.js';
import { fillersIn, followUpCaptured, followUpInterval, fragments, verbatim, type Fillers, type Interval, type Verbatim } from './note-style.js';
import { omissionsOf } from './omissions.js';
import { rouge, type Rouge } from './rouge.js';
import { plainWords } from './text.js';

export type DialogueScore = {
  rouge: Rouge;
  /** The transcript pasted whole as the note, against the same reference. */
  pasted: Rouge;
  facts: FactScore;
  wrong: WrongValues;
  decimals: DecimalsCut;
  invented: string[];
  fillers: Fillers;
  lines: number;
  fragments: number;
  verbatim: Verbatim;
  /** Note body words / reference words. */
  length: number;
  followUp?: { interval: Interval; captured: boolean };
  /** What the omission list beside the note names, and how many of the facts the note missed it names. */
  omissions?: { listed: number; missed: number; named: number };
};

export type ScoreInput = { note: string; transcript: string; reference: string; referenceSection?: string };

export function scoreDialogue({ note, transcript, reference, referenceSection }: ScoreInput): DialogueScore {
  const body = noteBody(note);
  const interval = followUpInterval(reference);
  const listed = omissionsOf(note, transcript);
  const facts = scoreFacts(referenceFacts(reference, referenceSection), body, transcript);
  const omissions = listed && {
    listed: listed.length,
    missed: facts.missed.length,
    named: scoreFacts(facts.missed, noteBody(listed.join('\n')), transcript).kept,
  };
  return {
    rouge: rouge(body.text, reference),
    pasted: rouge(transcript, reference),
    facts,
    wrong: wrongValues(body, transcript, reference),
    decimals: decimalsCut(body.text, transcript),
    invented: invented(body.text, transcript),
    fillers: fillersIn(body.lines),
    lines: body.lines.length,
    fragments: fragments(body.lines),
    verbatim: verbatim(body.lines, transcript),
    length: plainWords(body.lines.join('\n')).length / Math.max(1, plainWords(reference).length),
    ...(interval ? { followUp: { interval, captured: followUpCaptured(body.lines, interval) } } : {}),
    ...(omissions ? { omissions } : {}),
  };
}
