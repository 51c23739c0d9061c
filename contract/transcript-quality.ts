/**
 * How far a transcript can be trusted, as both the server (the line ending each document) and the consultation
 * screen (its warnings) tell it: one rule, in one place.
 */
import { uncertainShare } from './uncertain-words.js';

/** Engines (TranscriberInfo.id) whose transcripts are demonstration quality: the local pocketsphinx engine. */
export const isDemoQualityEngine = (id: string): boolean => id.startsWith('pocketsphinx');

/** A share of uncertain words above which a transcript is unreliable overall, of one of at least MIN_WORDS words. */
export const LOW_CONFIDENCE_SHARE = 0.2;
const MIN_WORDS = 10;

export function lowConfidence(transcript: string): boolean {
  const { uncertain, words } = uncertainShare(transcript);
  return words >= MIN_WORDS && uncertain / words > LOW_CONFIDENCE_SHARE;
}
