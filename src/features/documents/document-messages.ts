import { msg } from '@lingui/core/macro';

/** Spec §8 wording for documents. */
export const documentMessages = {
  loadFailed: msg`Failed to load documents.`,
  generateFailed: msg`Error generating document. Please try again.`,
  sendNotesFailed: msg`Failed to send notes.`,
};
