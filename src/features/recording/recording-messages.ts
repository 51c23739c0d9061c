import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { MicrophoneFailure } from './microphone';

/** Spec §8 wording for everything that can go wrong while recording. */
export const microphoneMessages: Record<MicrophoneFailure, MessageDescriptor> = {
  access: msg`Error accessing microphone. Check that it is connected and that this site has permission to use it.`,
  start: msg`Error starting microphone. Choose another microphone.`,
  no_device: msg`No microphone detected.`,
  incompatible_browser: msg`Incompatible browser for teleconsultation. Use Chrome, Edge or Opera.`,
  tab_cancelled: msg`No tab was shared. Start again and choose the tab of the video call.`,
  tab_without_audio: msg`The shared tab brings no sound. Start again, choose the video call's tab and tick "Share tab audio".`,
};

export const recordingMessages = {
  storageFull: msg`This device has no space left to save the recording. Free some space, then continue.`,
  sendFailed: msg`Error sending audio.`,
  noAudio: msg`No audio recorded.`,
  offline: msg`Connection problems: the server cannot be reached. Check your internet connection. The recording is saved on this device.`,
  overloaded: msg`Servers a bit overloaded, try again, information is saved.`,
  createFailed: msg`Error creating session.`,
  loadFailed: msg`Error loading session.`,
  typesLoadFailed: msg`The consultation types could not be loaded. Check the connection, then reload the page.`,
  finishFailed: msg`Error ending consultation.`,
  otherTab: msg`This consultation is being recorded in another tab of this browser. Record there, or close that tab first.`,
  handoverTimeout: msg`The other device did not let go of the recording. Check it, then try again.`,
  saveTranscriptFailed: msg`Error saving transcription / data.`,
};
