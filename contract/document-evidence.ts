/**
 * The evidence a version of a document carries: each of its sentences linked to where it was said, the words
 * flagged in it, and what was said that a note leaves out. Stored with the version (the `evidence` column of
 * db/schema.ts) and answered with it; the server's generated_documents module computes it.
 */

/** The four sections of a note. */
export type NoteSection = 'subjective' | 'objective' | 'assessment' | 'plan';

/**
 * A stretch of the transcript, with its words: the transcript may be corrected after the version was written.
 * `audio` names the recorded part it was said in and about when within it (estimated from where the words fall
 * in that part's text), so the clinician can listen to it while the audio is kept.
 */
export type Span = { start: number; end: number; quote: string; audio?: { id: string; offset_ms: number } };

/** A document sentence and where it comes from: transcript spans, the inputs, or nowhere (unsupported). */
export type LinkedSentence = { text: string; spans: Span[]; source: 'transcript' | 'inputs' | 'none' };

/** Something said that carries a clinical fact the note does not state. */
export type Omission = {
  /** The stretch as a note would write it (numbers in digits). */
  text: string;
  /** The section of a note it belongs in. */
  section: NoteSection;
  /** The facts of it the note does not state, as written in it. */
  missing: string[];
  /** Where it was said in the transcript. */
  start: number;
  end: number;
};

/**
 * `flagged`: the terms of this version that no source says and that an AI engine wrote (in this version or one
 * before it that the clinician's edits kept). `checked`: those of them the clinician confirmed, for this document
 * (carried to its later versions). `clinician_terms`: terms the clinician wrote in by hand, which a later version
 * of a model may repeat without being flagged. `omitted`: what was said and carries a clinical fact the note does
 * not state (omissions.ts), for notes only.
 */
export type DocumentEvidence = {
  sentences: LinkedSentence[];
  flagged: string[];
  checked?: string[];
  clinician_terms?: string[];
  omitted?: Omission[];
};
