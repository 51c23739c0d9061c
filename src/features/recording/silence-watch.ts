/**
 * Tells when the microphone has delivered silence for a while during a recording: a muted, unplugged or wrong
 * microphone records nothing but gives no error. "Silence" is below any working microphone's own noise (about
 * -70 dBFS, RMS 0.0003): a quiet room, or a pause in the conversation, stays above it.
 */

/** How long the microphone must stay silent before the clinician is told. */
export const SILENT_AFTER_MS = 10_000;
export const SILENT_RMS = 0.0003;

export class SilenceWatch {
  private silentSince?: number;
  private silent = false;

  constructor(
    private readonly onChange: (silent: boolean) => void,
    private readonly afterMs = SILENT_AFTER_MS,
  ) {}

  /** One reading of the input's loudness (RMS) at `now` (ms). */
  sample(rms: number, now: number): void {
    if (rms >= SILENT_RMS) {
      this.silentSince = undefined;
      this.set(false);
      return;
    }
    this.silentSince ??= now;
    if (now - this.silentSince >= this.afterMs) this.set(true);
  }

  /** Paused or stopped: the silence of a paused recording is no news; counting starts again on resume. */
  reset(): void {
    this.silentSince = undefined;
    this.set(false);
  }

  private set(silent: boolean) {
    if (silent === this.silent) return;
    this.silent = silent;
    this.onChange(silent);
  }
}
