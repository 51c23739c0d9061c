/** The loudness of a stream (RMS of the latest 2048 samples), from Web Audio; close() releases the context. */
export function createLevelMeter(stream: MediaStream): { level: () => number; close: () => Promise<void> } {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const buffer = new Float32Array(analyser.fftSize);
  return {
    level() {
      analyser.getFloatTimeDomainData(buffer);
      let sum = 0;
      for (const v of buffer) sum += v * v;
      return Math.sqrt(sum / buffer.length);
    },
    close: () => context.close(),
  };
}

/** The RMS level scaled for display (0–1): speech at a normal distance fills about half the bar. */
export const displayLevel = (rms: number) => Math.min(1, rms * 4);

export const MICROPHONE_STORAGE_KEY = 'microphone_device_id';
