/**
 * The omission list under measure: the product's list of what was said, carries a clinical fact and is not in
 * the note (generated_documents/omissions.ts), as the clinician sees it beside the note. Its recall is scored
 * with the scorer's own fact matching: of the reference facts the transcript states and the note leaves out,
 * how many the list names.
 */
import { omittedFacts } from '../../server/src/modules/generated_documents/omissions.js';

export function omissionsOf(note: string, transcript: string): string[] | undefined {
  return omittedFacts(note, transcript, 'en').map((o) => o.text);
}
