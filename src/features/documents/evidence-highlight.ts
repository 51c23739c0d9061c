import { atom } from 'jotai';

/** A stretch of the transcript a document sentence rests on, as it was when the version was written. */
export type EvidenceSpan = { start: number; end: number; quote: string };

/** What the transcript shows highlighted: the spans of the sentence the clinician chose in a document. */
export const evidenceHighlightAtom = atom<{ sessionId: string; sentence: string; spans: EvidenceSpan[] } | null>(null);

/**
 * The transcript cut into plain and highlighted pieces. A span is found where it was, or (the transcript was
 * corrected since) wherever its words are now; one no longer there is left out.
 */
export function highlightPieces(transcript: string, spans: EvidenceSpan[]): { text: string; marked: boolean }[] {
  const found = spans
    .map((s) =>
      transcript.slice(s.start, s.end) === s.quote
        ? { start: s.start, end: s.end }
        : (() => {
            const at = transcript.indexOf(s.quote);
            return at >= 0 ? { start: at, end: at + s.quote.length } : undefined;
          })(),
    )
    .filter((s): s is { start: number; end: number } => !!s)
    .sort((a, b) => a.start - b.start);
  const pieces: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const s of found) {
    if (s.start < at) continue;
    if (s.start > at) pieces.push({ text: transcript.slice(at, s.start), marked: false });
    pieces.push({ text: transcript.slice(s.start, s.end), marked: true });
    at = s.end;
  }
  if (at < transcript.length) pieces.push({ text: transcript.slice(at), marked: false });
  return pieces;
}
