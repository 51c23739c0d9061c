import { msg } from '@lingui/core/macro';

/** Spec §8 wording for documents. */
export const documentMessages = {
  loadFailed: msg`Failed to load documents.`,
  generateFailed: msg`Error generating document. Please try again.`,
  sendNotesFailed: msg`Failed to send notes.`,
  regenerateAudioFailed: msg`Failed to regenerate audio.`,
  commandNotHeard: msg`No words were heard in the recording. Record the command again, closer to the microphone.`,
  copied: msg`Copied.`,
  copyFailed: msg`Could not copy. Select the text and copy it by hand.`,
};
