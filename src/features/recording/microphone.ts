/** Opening audio inputs, with the failures of spec §8 told apart so the user gets the right advice. */

export type MicrophoneFailure = 'access' | 'start' | 'no_device' | 'incompatible_browser' | 'tab_cancelled' | 'tab_without_audio';

export class MicrophoneError extends Error {
  constructor(readonly failure: MicrophoneFailure) {
    super(failure);
  }
}

export function classifyMediaError(err: unknown): MicrophoneFailure {
  const name = (err as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'access';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'no_device';
  return 'start';
}

const AUDIO = { echoCancellation: true, noiseSuppression: true, autoGainControl: true } as const;

export async function openMicrophone(deviceId?: string): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError('start');
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: deviceId ? { ...AUDIO, deviceId: { exact: deviceId } } : AUDIO });
  } catch (err) {
    throw new MicrophoneError(classifyMediaError(err));
  }
}

export async function listMicrophones(): Promise<{ deviceId: string; label: string }[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.filter((d) => d.kind === 'audioinput').map((d, i) => ({ deviceId: d.deviceId, label: d.label || `Microphone ${i + 1}` }));
}

/** Teleconsultation needs tab audio capture, which only Chromium browsers offer (Chrome, Edge, Opera). */
export function isTeleconsultationSupported(userAgent = navigator.userAgent): boolean {
  return /Chrome\/|Chromium\/|Edg\/|OPR\//.test(userAgent) && !/Firefox\/|FxiOS|CriOS|EdgiOS|Mobile/.test(userAgent);
}

/**
 * The clinician's microphone and the audio of a shared tab (the video call) as one two-channel stream: the
 * microphone on the left, the call on the right, so the server tells who spoke by the channel each word is on.
 * Stopping the returned stream's tracks releases both sources.
 */
export async function openTeleconsultation(deviceId?: string): Promise<{ stream: MediaStream; release: () => void; channelLayout: 'clinician_patient' }> {
  if (!isTeleconsultationSupported() || !navigator.mediaDevices?.getDisplayMedia) throw new MicrophoneError('incompatible_browser');
  const mic = await openMicrophone(deviceId);
  let tab: MediaStream;
  try {
    tab = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
  } catch (err) {
    mic.getTracks().forEach((t) => t.stop());
    // The picker closed without a choice (NotAllowedError from the picker, not the microphone): not a
    // microphone problem, the clinician is asked to share the call's tab.
    const failure = classifyMediaError(err);
    throw new MicrophoneError(failure === 'access' ? 'tab_cancelled' : failure);
  }
  tab.getVideoTracks().forEach((t) => t.stop());
  if (tab.getAudioTracks().length === 0) {
    [...mic.getTracks(), ...tab.getTracks()].forEach((t) => t.stop());
    throw new MicrophoneError('tab_without_audio');
  }
  const context = new AudioContext();
  const destination = context.createMediaStreamDestination();
  destination.channelCount = 2;
  // Each input of the merger is one channel: a stereo microphone or call is mixed down to its side.
  const merger = context.createChannelMerger(2);
  context.createMediaStreamSource(mic).connect(merger, 0, 0);
  context.createMediaStreamSource(tab).connect(merger, 0, 1);
  merger.connect(destination);
  return {
    stream: destination.stream,
    channelLayout: 'clinician_patient',
    release: () => {
      [...mic.getTracks(), ...tab.getTracks()].forEach((t) => t.stop());
      void context.close();
    },
  };
}
