/**
 * Which terms of a version the clinician must still check (issue: the guard must survive editing). A term a model
 * wrote that no source says is flagged; it stays flagged through the clinician's edits for as long as the text
 * keeps it, and until the clinician confirms it; a term they remove is no longer flagged; a term they write in
 * themselves is theirs, never flagged, even when a model later repeats it. The previous version of the same document
 * is never a source of its own: otherwise any change would make a model's invention "said".
 */
import type { DocumentEvidence } from '../../../../contract/document-evidence.js';
import { fold } from '../../ai/structurer/facts.js';

export type Flags = Pick<DocumentEvidence, 'flagged' | 'checked' | 'clinician_terms'>;

const has = (list: readonly string[] | undefined, term: string) => (list ?? []).some((t) => fold(t) === fold(term));
const union = (a: readonly string[] | undefined, b: readonly string[]) => [...(a ?? []), ...b.filter((t) => !has(a, t))];

/** A version a model wrote: its own unsupported terms, less what the clinician wrote in earlier versions. */
export function flagsOfModelVersion(unsupported: string[], previous: DocumentEvidence | null | undefined): Flags {
  return {
    flagged: unsupported.filter((t) => !has(previous?.clinician_terms, t)),
    checked: previous?.checked ?? [],
    clinician_terms: previous?.clinician_terms ?? [],
  };
}

/**
 * A version the clinician wrote by hand: what it keeps of the terms flagged before stays flagged; an unsupported
 * term that was not flagged before is one they wrote in themselves.
 */
export function flagsOfHandEdit(unsupported: string[], previous: DocumentEvidence | null | undefined): Flags {
  const kept = unsupported.filter((t) => has(previous?.flagged, t));
  const theirs = unsupported.filter((t) => !has(previous?.flagged, t));
  return { flagged: kept, checked: previous?.checked ?? [], clinician_terms: union(previous?.clinician_terms, theirs) };
}

/** A version no model touched (the offline composer): nothing was invented to check. */
export function flagsOfComposerVersion(previous: DocumentEvidence | null | undefined): Flags {
  return { flagged: [], checked: previous?.checked ?? [], clinician_terms: previous?.clinician_terms ?? [] };
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
