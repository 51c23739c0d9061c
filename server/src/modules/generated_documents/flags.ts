/**
 * Which terms of a version the clinician must still check (the guard must survive editing). A term a model wrote
 * that no source says is flagged; once flagged in any version of a document (or in the notes a letter is written
 * from), it stays flagged wherever the text keeps it, until the clinician confirms it; a term they remove is no
 * longer flagged; a term they write in themselves (by hand, or asked for in a change) is theirs and never flagged,
 * even when a model repeats it. Earlier versions, the corrected notes and the clinician's instructions are never
 * sources of a version's flags: otherwise any change would make a model's invention "said".
 */
import type { DocumentEvidence } from '../../../../contract/document-evidence.js';
import { fold } from '../../ai/structurer/facts.js';

export type Flags = Pick<DocumentEvidence, 'flagged' | 'checked' | 'clinician_terms'>;
/** What the earlier versions of a document, and the notes it is written from, say about terms. */
export type PriorFlags = { flagged: string[]; checked: string[]; clinicianTerms: string[] };

const has = (list: readonly string[] | undefined, term: string) => (list ?? []).some((t) => fold(t) === fold(term));
const union = (a: readonly string[] | undefined, b: readonly string[]) => [...(a ?? []), ...b.filter((t) => !has(a, t))];

/** Every term flagged, confirmed or written in by the clinician in any of these versions (missing evidence says nothing). */
export function priorOf(evidences: readonly (DocumentEvidence | null | undefined)[]): PriorFlags {
  let flagged: string[] = [];
  let checked: string[] = [];
  let clinicianTerms: string[] = [];
  for (const e of evidences) {
    if (!e) continue;
    flagged = union(flagged, e.flagged);
    checked = union(checked, e.checked ?? []);
    clinicianTerms = union(clinicianTerms, e.clinician_terms ?? []);
  }
  // A term a model was once flagged for is never the clinician's.
  return { flagged, checked, clinicianTerms: clinicianTerms.filter((t) => !has(flagged, t)) };
}

/**
 * A version a model wrote: its unsupported terms, less the clinician's own (written by hand before, or `requested`
 * in this change), unless one was flagged before.
 */
export function flagsOfModelVersion(unsupported: string[], prior: PriorFlags, requested: string[] = []): Flags {
  const theirs = union(
    prior.clinicianTerms,
    requested.filter((t) => !has(prior.flagged, t)),
  );
  return {
    flagged: unsupported.filter((t) => has(prior.flagged, t) || !has(theirs, t)),
    checked: prior.checked,
    clinician_terms: union(
      prior.clinicianTerms,
      unsupported.filter((t) => has(theirs, t) && !has(prior.flagged, t)),
    ),
  };
}

/** A version the clinician wrote by hand: what it keeps of terms flagged before stays flagged; the rest is theirs. */
export function flagsOfHandEdit(unsupported: string[], prior: PriorFlags): Flags {
  return {
    flagged: unsupported.filter((t) => has(prior.flagged, t)),
    checked: prior.checked,
    clinician_terms: union(
      prior.clinicianTerms,
      unsupported.filter((t) => !has(prior.flagged, t)),
    ),
  };
}

/**
 * A version the offline composer wrote (from the transcript, from corrected notes, or as a change of a model's text):
 * it invents nothing, but what it carries of terms flagged before stays flagged.
 */
export function flagsOfComposerVersion(unsupported: string[], prior: PriorFlags): Flags {
  return { flagged: unsupported.filter((t) => has(prior.flagged, t)), checked: prior.checked, clinician_terms: prior.clinicianTerms };
}

/** What the clinician must still check in a version: its flagged terms they have not confirmed. */
export function termsToCheck(evidence: Pick<DocumentEvidence, 'flagged' | 'checked'> | null | undefined): string[] {
  return (evidence?.flagged ?? []).filter((t) => !has(evidence?.checked, t));
}

/** The confirmation of some flagged terms: only terms the version flags are taken. */
export function withChecked(evidence: DocumentEvidence, terms: string[]): DocumentEvidence {
  const confirmed = terms.filter((t) => has(evidence.flagged, t));
  return { ...evidence, checked: union(evidence.checked, confirmed) };
}

/** The terms a change request adds: those it names that the text it changes does not already hold. */
export function requestedTerms(inInstructions: string[], inPrevious: string[]): string[] {
  return inInstructions.filter((t) => !has(inPrevious, t));
}
