import { beforeEach, describe, expect, it } from 'vitest';
import { forgetRecording, markElapsed, markHidden, markLeft, markRecording, recordingInProgress, stopCause } from './interrupted-recording';

describe('recordings in progress', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the time recorded so far, for its own account only', () => {
    markRecording('s1', 'u1', 1000);
    markElapsed('s1', 192_400);
    expect(recordingInProgress('s1', 'u1')?.elapsedMs).toBe(192_400);
    expect(recordingInProgress('s1', 'u2')).toBeUndefined();
    forgetRecording('s1');
    expect(recordingInProgress('s1', 'u1')).toBeUndefined();
  });

  it('a recording that was forgotten is not brought back by a late update', () => {
    markRecording('s1', 'u1', 0);
    forgetRecording('s1');
    markElapsed('s1', 5000);
    markLeft('s1');
    expect(recordingInProgress('s1', 'u1')).toBeUndefined();
  });

  it('tells a reload from a closed or crashed page and from a screen left in the app', () => {
    markRecording('s1', 'u1', 0);
    markHidden('s1', 100_000);
    const entry = recordingInProgress('s1', 'u1')!;
    expect(stopCause(entry, { type: 'reload', startedAt: 100_200 })).toBe('reloaded');
    // A reload much later (the page had crashed, the app was opened again and reloaded on another screen).
    expect(stopCause(entry, { type: 'reload', startedAt: 900_000 })).toBe('closed');
    expect(stopCause(entry, { type: 'navigate', startedAt: 100_200 })).toBe('closed');
    // A save completing while the page unloads keeps it a reload.
    markElapsed('s1', 3000);
    expect(stopCause(recordingInProgress('s1', 'u1')!, { type: 'reload', startedAt: 100_200 })).toBe('reloaded');
    // No pagehide at all since recording started: a crash.
    markRecording('s1', 'u1', 3000);
    expect(stopCause(recordingInProgress('s1', 'u1')!, { type: 'reload', startedAt: 100_200 })).toBe('closed');
    markLeft('s1');
    expect(stopCause(recordingInProgress('s1', 'u1')!, { type: 'navigate', startedAt: 0 })).toBe('left');
  });
});
