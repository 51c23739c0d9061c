import { renderTurns, type Speaker, type SpeakerTurn } from '../../../../contract/speakers.js';
import type { ChunkRow } from './repository.js';

export type TranscriptionStatus = 'none' | 'processing' | 'done' | 'partial' | 'unavailable';

/** Marks a part that failed every retry, so the clinician sees where words are missing. */
export const failedPartMarker = (order: number) => `[part ${order + 1} could not be transcribed]`;

/** Marks a stretch of parts the client said it recorded that never reached the server (orders, 0-based). */
export const missingPartsMarker = (from: number, to: number) =>
  from === to ? `[part ${from + 1} did not arrive]` : `[parts ${from + 1}–${to + 1} did not arrive]`;

/** Marks a part that arrived but was still not transcribed when the wait for it ended. */
export const untranscribedPartMarker = (order: number) => `[part ${order + 1} was not transcribed in time]`;

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
  const { expectedParts } = expectation;
  if (expectedParts !== null) {
    const waiting = hasExpectedPartsPending(sorted, expectedParts);
    if (waiting && expectation.waitOver) return assembleWithGaps(sorted, expectedParts);
    if (waiting)
      return { text: assembleInOrder(sorted).text, status: sorted.some((c) => c.transcriptionStatus === 'unavailable') ? 'unavailable' : 'processing' };
  }
  const assembled = assembleInOrder(sorted);
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

function assembleInOrder(sorted: TranscribedPart[]): { text: string; complete: boolean; failed: boolean } {
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
      parts.push(failedPartMarker(c.order));
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
function assembleWithGaps(sorted: TranscribedPart[], expectedParts: number): { text: string; status: TranscriptionStatus } {
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
      parts.push(missingPartsMarker(gapFrom, order - 1));
      gapFrom = undefined;
    }
    if (c.transcriptionStatus === 'failed') parts.push(failedPartMarker(order));
    else if (c.transcriptionStatus !== 'done') parts.push(untranscribedPartMarker(order));
    else parts.pushPart(c);
  }
  if (gapFrom !== undefined) parts.push(missingPartsMarker(gapFrom, end - 1));
  return { text: parts.toString(), status: sorted.some((c) => c.transcriptionStatus === 'unavailable') ? 'unavailable' : 'partial' };
}

/** Whether the wait for the parts a finish named is over (it runs from the moment the session finished). */
export function partWaitOver(session: { finishedAt: Date | null }, partWaitMs: number, now = Date.now()): boolean {
  return session.finishedAt !== null && session.finishedAt.getTime() + partWaitMs <= now;
}
