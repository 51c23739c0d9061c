import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordVoiceCommand, remainingLabel, VOICE_COMMAND_MAX_MS } from './voice-command';

function fakeRecorder() {
  const r = {
    state: 'inactive' as RecordingState,
    mimeType: 'audio/webm',
    ondataavailable: null as ((e: BlobEvent) => void) | null,
    onstop: null as (() => void) | null,
    start: vi.fn(() => {
      r.state = 'recording';
    }),
    stop: vi.fn(() => {
      r.state = 'inactive';
      r.ondataavailable?.({ data: new Blob(['voice']) } as BlobEvent);
      r.onstop?.();
    }),
  };
  return r;
}

afterEach(() => vi.useRealTimers());

describe('voice command', () => {
  it('counts down from 1:30', () => {
    expect(VOICE_COMMAND_MAX_MS).toBe(90_000);
    expect(remainingLabel(0)).toBe('1:30');
    expect(remainingLabel(29_500)).toBe('1:01');
    expect(remainingLabel(89_001)).toBe('0:01');
    expect(remainingLabel(95_000)).toBe('0:00');
  });

  it('stops itself at 1:30 and gives the audio', async () => {
    vi.useFakeTimers();
    const recorder = fakeRecorder();
    const ticks: number[] = [];
    const command = recordVoiceCommand({} as MediaStream, { createRecorder: () => recorder, onTick: (ms) => ticks.push(ms) });
    vi.advanceTimersByTime(89_000);
    expect(recorder.stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(recorder.stop).toHaveBeenCalledTimes(1);
    const blob = await command.result;
    expect(await blob.text()).toBe('voice');
    expect(Math.max(...ticks)).toBeLessThanOrEqual(90_000);
    // No tick after the stop.
    const count = ticks.length;
    vi.advanceTimersByTime(5_000);
    expect(ticks.length).toBe(count);
  });

  it('can be stopped early, once', async () => {
    vi.useFakeTimers();
    const recorder = fakeRecorder();
    const command = recordVoiceCommand({} as MediaStream, { createRecorder: () => recorder });
    vi.advanceTimersByTime(3_000);
    command.stop();
    command.stop();
    vi.advanceTimersByTime(100_000);
    expect(recorder.stop).toHaveBeenCalledTimes(1);
    await expect(command.result).resolves.toBeInstanceOf(Blob);
  });
});
