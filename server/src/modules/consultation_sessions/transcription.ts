import { renderTurns, type Speaker, type SpeakerTurn } from '../../../../contract/speakers.js';
import type { Language } from '../../../../contract/constants.js';
import type { ChunkRow } from './repository.js';

export type TranscriptionStatus = 'none' | 'processing' | 'done' | 'partial' | 'unavailable';

/**
 * The markers put where words are missing, in the language of the text they sit in: a Portuguese note must not
 * carry an English "[part 4 did not arrive]". Part numbers count from 1, as the clinician counts them.
 */
const MARKERS: Record<
  Language,
  { failed: (n: number) => string; missing: (n: number) => string; missingRange: (a: number, b: number) => string; late: (n: number) => string }
> = {
  en: {
    failed: (n) => `[part ${n} could not be transcribed]`,
    missing: (n) => `[part ${n} did not arrive]`,
    missingRange: (a, b) => `[parts ${a}–${b} did not arrive]`,
    late: (n) => `[part ${n} was not transcribed in time]`,
  },
  pt: {
    failed: (n) => `[a parte ${n} não pôde ser transcrita]`,
    missing: (n) => `[a parte ${n} não chegou]`,
    missingRange: (a, b) => `[as partes ${a}–${b} não chegaram]`,
    late: (n) => `[a parte ${n} não foi transcrita a tempo]`,
  },
  de: {
    failed: (n) => `[Teil ${n} konnte nicht transkribiert werden]`,
    missing: (n) => `[Teil ${n} ist nicht angekommen]`,
    missingRange: (a, b) => `[Teile ${a}–${b} sind nicht angekommen]`,
    late: (n) => `[Teil ${n} wurde nicht rechtzeitig transkribiert]`,
  },
  es: {
    failed: (n) => `[la parte ${n} no se pudo transcribir]`,
    missing: (n) => `[la parte ${n} no llegó]`,
    missingRange: (a, b) => `[las partes ${a}–${b} no llegaron]`,
    late: (n) => `[la parte ${n} no se transcribió a tiempo]`,
  },
};

/** Marks a part that failed every retry, so the clinician sees where words are missing (orders, 0-based). */
export const failedPartMarker = (order: number, language: Language = 'en') => MARKERS[language].failed(order + 1);

/** Marks a stretch of parts the client said it recorded that never reached the server (orders, 0-based). */
export const missingPartsMarker = (from: number, to: number, language: Language = 'en') =>
  from === to ? MARKERS[language].missing(from + 1) : MARKERS[language].missingRange(from + 1, to + 1);

/** Marks a part that arrived but was still not transcribed when the wait for it ended. */
export const untranscribedPartMarker = (order: number, language: Language = 'en') => MARKERS[language].late(order + 1);

const TRANSCRIBED = ['done', 'failed'];

/** The speech engines that wrote a consultation's parts, each once, in order. */
export const transcriptEngines = (parts: { transcribedBy?: string | null }[]): string[] =>
  [...new Set(parts.flatMap((c) => (c.transcribedBy ? [c.transcribedBy] : [])))].sort();

/** What the transcript is made of: a part's place, its text (or speakers' turns) and how its transcription went. */
export type TranscribedPart = Pick<ChunkRow, 'order' | 'transcript' | 'speakerTurns' | 'transcriptionStatus'>;

export type PartExpectation = {
  /** The parts (orders 0..n-1) the client said it recorded when it finished; null when it did not say. */
  expectedParts: number | null;
  /** The wait for those parts is over: write with what there is, marking what is missing. */
  waitOver: boolean;
  /** The language of the text the transcript goes into, for the markers of missing words (English when not said). */
  language?: Language;
};

/**
 * The transcript grows in order: the texts of the parts 0, 1, 2… up to the first part that is missing or not
 * transcribed yet. A part that failed every retry shows a marker instead of being dropped silently.
 *
 * When the finish named how many parts were recorded, the transcript stays `processing` until each of them is
 * stored and transcribed, however the stored ones look; once the wait is over every gap gets a marker and the
 * parts after it are still used, so the document says which stretch is missing instead of ending early.
 */
export function assembleTranscription(
  chunks: TranscribedPart[],
  expectation: PartExpectation = { expectedParts: null, waitOver: false },
): { text: string; status: TranscriptionStatus } {
  const sorted = [...chunks].sort((a, b) => a.order - b.order);
  const { expectedParts, language = 'en' } = expectation;
  if (expectedParts !== null) {
    const waiting = hasExpectedPartsPending(sorted, expectedParts);
    if (waiting && expectation.waitOver) return assembleWithGaps(sorted, expectedParts, language);
    if (waiting)
      return {
        text: assembleInOrder(sorted, language).text,
        status: sorted.some((c) => c.transcriptionStatus === 'unavailable') ? 'unavailable' : 'processing',
      };
  }
  const assembled = assembleInOrder(sorted, language);
  const status: TranscriptionStatus =
    sorted.length === 0
      ? 'none'
      : sorted.some((c) => c.transcriptionStatus === 'unavailable')
        ? 'unavailable'
        : !assembled.complete
          ? 'processing'
          : assembled.failed
            ? 'partial'
            : 'done';
  return { text: assembled.text, status };
}

/**
 * The transcript's pieces joined: plain parts with a space, as one flow of speech; around a part whose speakers
 * are known, a new line per speaker, and a speaker who goes on from one part into the next keeps one label.
 */
class TranscriptText {
  private text = '';
  private lastSpeaker: Speaker | undefined;
  private lastLabelled = false;

  /** After labelled turns a plain piece starts a paragraph: its speaker is unknown, not the last one's. */
  push(piece: string): void {
    if (!piece) return;
    this.text += this.text ? (this.lastLabelled ? '\n\n' : ' ') + piece : piece;
    this.lastSpeaker = undefined;
    this.lastLabelled = false;
  }

  pushTurns(turns: SpeakerTurn[]): void {
    if (!turns.length) return;
    const continues = this.lastSpeaker !== undefined && turns[0]!.speaker === this.lastSpeaker;
    const piece = renderTurns(turns, this.lastSpeaker);
    this.text += this.text ? (continues ? ' ' : '\n') + piece : piece;
    this.lastSpeaker = turns.at(-1)!.speaker;
    this.lastLabelled = true;
  }

  pushPart(c: TranscribedPart): void {
    if (c.speakerTurns?.length) this.pushTurns(c.speakerTurns);
    else if (c.transcript) this.push(c.transcript);
  }

  toString(): string {
    return this.text;
  }
}

function assembleInOrder(sorted: TranscribedPart[], language: Language): { text: string; complete: boolean; failed: boolean } {
  const parts = new TranscriptText();
  let expected = 0;
  let complete = true;
  let failed = false;
  for (const c of sorted) {
    if (c.order !== expected || !TRANSCRIBED.includes(c.transcriptionStatus)) {
      complete = false;
      break;
    }
    if (c.transcriptionStatus === 'failed') {
      failed = true;
      parts.push(failedPartMarker(c.order, language));
    } else {
      parts.pushPart(c);
    }
    expected++;
  }
  return { text: parts.toString(), complete, failed };
}

/** True while one of the parts 0..expectedParts-1 is not stored, or stored and not transcribed yet. */
function hasExpectedPartsPending(sorted: TranscribedPart[], expectedParts: number): boolean {
  // Without an engine (unavailable) a part will never have text: it counts as settled like a failed one.
  const settled = new Set(sorted.filter((c) => c.order < expectedParts && [...TRANSCRIBED, 'unavailable'].includes(c.transcriptionStatus)).map((c) => c.order));
  return settled.size < expectedParts;
}

/** Every part up to the last one expected or stored, each gap and untranscribed part marked. */
function assembleWithGaps(sorted: TranscribedPart[], expectedParts: number, language: Language): { text: string; status: TranscriptionStatus } {
  const byOrder = new Map(sorted.map((c) => [c.order, c]));
  const end = Math.max(expectedParts, (sorted.at(-1)?.order ?? -1) + 1);
  const parts = new TranscriptText();
  let gapFrom: number | undefined;
  for (let order = 0; order < end; order++) {
    const c = byOrder.get(order);
    if (!c) {
      gapFrom ??= order;
      continue;
    }
    if (gapFrom !== undefined) {
      parts.push(missingPartsMarker(gapFrom, order - 1, language));
      gapFrom = undefined;
    }
    if (c.transcriptionStatus === 'failed') parts.push(failedPartMarker(order, language));
    else if (c.transcriptionStatus !== 'done') parts.push(untranscribedPartMarker(order, language));
    else parts.pushPart(c);
  }
  if (gapFrom !== undefined) parts.push(missingPartsMarker(gapFrom, end - 1, language));
  return { text: parts.toString(), status: sorted.some((c) => c.transcriptionStatus === 'unavailable') ? 'unavailable' : 'partial' };
}

/** Whether the wait for the parts a finish named is over (it runs from the moment the session finished). */
export function partWaitOver(session: { finishedAt: Date | null }, partWaitMs: number, now = Date.now()): boolean {
  return session.finishedAt !== null && session.finishedAt.getTime() + partWaitMs <= now;
}
