import { labelledStretches } from '../../../contract/speakers.js';

/** Word error rate: word-level edit distance between hypothesis and reference, over the reference length. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return { errors: prev[hyp.length]!, words: ref.length };
}

export const wordErrorRate = (reference: string, hypothesis: string) => {
  const { errors, words } = wordErrors(reference, hypothesis);
  return words === 0 ? 0 : errors / words;
};

/**
 * Who-said-it accuracy of a labelled transcript: the transcript's words are aligned with the reference's (the
 * same edit distance), and of the words recognised right, the share carrying their speaker's label. Words the
 * engine got wrong count in the word error rate, not here.
 */
export function speakerAttribution(
  reference: { speaker: string; text: string }[],
  transcript: string,
): { matched: number; rightSpeaker: number; words: number } {
  const ref = reference.flatMap((line) => normalizeWords(line.text).map((word) => ({ word, speaker: line.speaker })));
  const hyp = labelledStretches(transcript).flatMap((s) => normalizeWords(transcript.slice(s.start, s.end)).map((word) => ({ word, speaker: s.role ?? '' })));
  const cost: number[][] = Array.from({ length: ref.length + 1 }, (_, i) => Array.from({ length: hyp.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + (ref[i - 1]!.word === hyp[j - 1]!.word ? 0 : 1));
    }
  }
  let matched = 0;
  let rightSpeaker = 0;
  for (let i = ref.length, j = hyp.length; i > 0 && j > 0; ) {
    const same = ref[i - 1]!.word === hyp[j - 1]!.word;
    if (cost[i]![j] === cost[i - 1]![j - 1]! + (same ? 0 : 1)) {
      if (same) {
        matched++;
        if (ref[i - 1]!.speaker === hyp[j - 1]!.speaker) rightSpeaker++;
      }
      i--;
      j--;
    } else if (cost[i]![j] === cost[i - 1]![j]! + 1) i--;
    else j--;
  }
  return { matched, rightSpeaker, words: ref.length };
}
