/**
 * Words a speech engine was not sure of are kept in the transcript, marked: `[the codeine?]`. The clinician sees
 * them as uncertain (the transcript view shows them so, and tells screen readers), corrects or confirms them by
 * editing the transcript (taking the brackets off), and the notes never lift a marked word into a value, a
 * medicine list or a suggested value: the sentence stays as it was heard, marks included.
 *
 * The mark is plain text so that it survives everything a transcript goes through (parts assembled, speakers'
 * turns, the clinician's edits, a copy, a model's prompt) and reads as what it is where nothing renders it.
 */

/** A marked stretch: no bracket or line end inside, a question mark before the closing bracket. */
export const UNCERTAIN_SPAN = /\[([^[\]\n]+?)\?\]/g;

/** The words, marked as uncertain. */
export const markUncertain = (words: string): string => `[${words.trim()}?]`;

/** Marks next to each other become one: `[the?] [codeine?]` is `[the codeine?]`. */
export const joinUncertain = (text: string): string => text.replace(/\?\] \[(?=[^[\]\n]+?\?\])/g, ' ');

export const hasUncertainWords = (text: string): boolean => new RegExp(UNCERTAIN_SPAN.source).test(text);

/** The text with its marks taken off (the words kept): for comparing with what was said. */
export const withoutUncertainMarks = (text: string): string => text.replace(UNCERTAIN_SPAN, '$1');

/** The text with its uncertain stretches taken out (a gap left): what was heard for sure. */
export const withoutUncertainWords = (text: string): string => text.replace(UNCERTAIN_SPAN, ' … ');

export type TranscriptPiece = { text: string; uncertain: boolean };

/** The text cut into its certain and uncertain stretches, in order, for a view to render. */
export function uncertainPieces(text: string): TranscriptPiece[] {
  const pieces: TranscriptPiece[] = [];
  let from = 0;
  for (const m of text.matchAll(UNCERTAIN_SPAN)) {
    if (m.index > from) pieces.push({ text: text.slice(from, m.index), uncertain: false });
    pieces.push({ text: m[1]!, uncertain: true });
    from = m.index + m[0].length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from), uncertain: false });
  return pieces;
}

/** How many of the text's words are marked uncertain, and how many words it has. */
export function uncertainShare(text: string): { uncertain: number; words: number } {
  const count = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  let uncertain = 0;
  for (const m of text.matchAll(UNCERTAIN_SPAN)) uncertain += count(m[1]!);
  return { uncertain, words: count(withoutUncertainMarks(text)) };
}
