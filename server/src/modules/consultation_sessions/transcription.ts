import type { ChunkRow } from './repository.js';

export type TranscriptionStatus = 'none' | 'processing' | 'done' | 'partial' | 'unavailable';

/** Marks a part that failed every retry, so the clinician sees where words are missing. */
export const failedPartMarker = (order: number) => `[part ${order + 1} could not be transcribed]`;

/**
 * The transcript grows in order: the texts of the parts 0, 1, 2… up to the first part that is missing or not
 * transcribed yet. A part that failed every retry shows a marker instead of being dropped silently.
 */
export function assembleTranscription(chunks: ChunkRow[]): { text: string; status: TranscriptionStatus } {
  const sorted = [...chunks].sort((a, b) => a.order - b.order);
  const parts: string[] = [];
  let expected = 0;
  let complete = true;
  let failed = false;
  for (const c of sorted) {
    if (c.order !== expected || !['done', 'failed'].includes(c.transcriptionStatus)) {
      complete = false;
      break;
    }
    if (c.transcriptionStatus === 'failed') {
      failed = true;
      parts.push(failedPartMarker(c.order));
    } else if (c.transcript) {
      parts.push(c.transcript);
    }
    expected++;
  }
  const status: TranscriptionStatus =
    sorted.length === 0
      ? 'none'
      : sorted.some((c) => c.transcriptionStatus === 'unavailable')
        ? 'unavailable'
        : !complete
          ? 'processing'
          : failed
            ? 'partial'
            : 'done';
  return { text: parts.join(' '), status };
}
