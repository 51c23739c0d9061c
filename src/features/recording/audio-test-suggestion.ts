/**
 * Whether the first consultation should suggest the audio test, in localStorage (`audio_test_suggestion`): once the
 * test was done, the suggestion dismissed, or an earlier consultation found, it is never shown again on this device.
 */
import { STORAGE_KEYS } from '../../offline/storage-keys';

export type AudioTestSuggestion = 'done' | 'dismissed' | 'not_first';

export function audioTestSettled(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.audioTestSuggestion) !== null;
  } catch {
    return true;
  }
}

export function rememberAudioTest(value: AudioTestSuggestion): void {
  try {
    localStorage.setItem(STORAGE_KEYS.audioTestSuggestion, value);
  } catch {
    // Storage blocked: the suggestion may come back; nothing else depends on it.
  }
}
