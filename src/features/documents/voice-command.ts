/** Spec §5: a voice command lasts up to 1:30; the recorder stops itself there. */
export const VOICE_COMMAND_MAX_MS = 90_000;

/** "1:30", "0:05": the time left, rounded up so the last second still shows 0:01. */
export function remainingLabel(elapsedMs: number, maxMs = VOICE_COMMAND_MAX_MS): string {
  const left = Math.max(0, Math.ceil((maxMs - elapsedMs) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

type RecorderLike = Pick<MediaRecorder, 'start' | 'stop' | 'state' | 'mimeType'> & {
  ondataavailable: ((e: BlobEvent) => void) | null;
  onstop: (() => void) | null;
};

export type VoiceCommand = { stop(): void; result: Promise<Blob> };

/**
 * Records one voice command from a stream: ticks with the elapsed time, stops itself at the limit, and resolves
 * with the audio. The caller owns the stream (and stops its tracks).
 */
export function recordVoiceCommand(
  stream: MediaStream,
  opts: { maxMs?: number; onTick?: (elapsedMs: number) => void; createRecorder?: (s: MediaStream) => RecorderLike } = {},
): VoiceCommand {
  const maxMs = opts.maxMs ?? VOICE_COMMAND_MAX_MS;
  const recorder = (opts.createRecorder ?? ((s) => new MediaRecorder(s) as unknown as RecorderLike))(stream);
  const parts: Blob[] = [];
  const startedAt = Date.now();
  let ticker: ReturnType<typeof setInterval> | undefined;
  let limit: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearInterval(ticker);
    clearTimeout(limit);
    if (recorder.state !== 'inactive') recorder.stop();
  };
  const result = new Promise<Blob>((resolve) => {
    recorder.ondataavailable = (e) => {
      if (e.data.size) parts.push(e.data);
    };
    recorder.onstop = () => resolve(new Blob(parts, { type: recorder.mimeType || 'audio/webm' }));
  });
  recorder.start();
  opts.onTick?.(0);
  ticker = setInterval(() => opts.onTick?.(Math.min(maxMs, Date.now() - startedAt)), 250);
  limit = setTimeout(stop, maxMs);
  return { stop, result };
}
