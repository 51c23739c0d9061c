/**
 * The clinician's dismissals of what was said but left out of the notes, in localStorage
 * (`dismissed_omissions`): per consultation and document, the transcript offsets of each dismissed stretch, so a
 * dismissal holds across the note's versions and reloads on this device. Offsets only, never the words said; the
 * 100 most recently touched documents are kept, older ones dropped.
 */
import { STORAGE_KEYS } from '../../offline/storage-keys';
import { readStoredRecord, writeStoredRecord } from '../../offline/stored-records';

type Dismissed = { at: number; spans: string[] };
const KEEP = 100;

const spanKey = (o: { start: number; end: number }) => `${o.start}-${o.end}`;

const read = () => readStoredRecord<Dismissed>(STORAGE_KEYS.dismissedOmissions);

/** The dismissed stretches of one consultation's document. */
export function dismissedOmissions(sessionId: string, docKey: string): Set<string> {
  return new Set(read()[`${sessionId}/${docKey}`]?.spans ?? []);
}

export const isDismissed = (dismissed: Set<string>, o: { start: number; end: number }) => dismissed.has(spanKey(o));

/** Records a dismissal and answers the document's dismissed stretches; storage that refuses it only forgets it. */
export function dismissOmission(sessionId: string, docKey: string, o: { start: number; end: number }): Set<string> {
  const stored = read();
  const key = `${sessionId}/${docKey}`;
  const spans = [...new Set([...(stored[key]?.spans ?? []), spanKey(o)])];
  stored[key] = { at: Date.now(), spans };
  // Storage full or blocked: the dismissal lasts until the page is left.
  writeStoredRecord(STORAGE_KEYS.dismissedOmissions, stored, { count: KEEP, touchedAt: (d) => d.at });
  return new Set(spans);
}
