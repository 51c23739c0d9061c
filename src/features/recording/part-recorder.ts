/**
 * Records a consultation as a series of standalone audio files ("parts"). Each part is a complete WebM file
 * from its own MediaRecorder, so the server can transcribe it alone. A new part starts at a quiet moment after
 * MIN_PART_MS (or at MAX_PART_MS if nobody pauses): the next recorder starts before the previous one stops, so
 * the boundary falls in a pause with a few milliseconds of overlap and no word is cut or lost.
 *
 * Every half second the part so far goes to `savePart` as `recording` (so a crash or a reload loses at most
 * that half second), and the complete part goes once more as `pending` when it ends. Saves run one after the
 * other, in order; `savePart` must write to IndexedDB before anything else.
 */

import type { ChannelLayout } from '../../../contract/speakers';
import { createLevelMeter, displayLevel } from './level-meter';
import { SilenceWatch } from './silence-watch';

export const MIN_PART_MS = 5000;
export const MAX_PART_MS = 10_000;
const QUIET_LEVEL = 0.02;
const QUIET_HOLD_MS = 200;
const TICK_MS = 100;
const SLICE_MS = 500;

export type SavedPart = { order: number; blob: Blob; mimeType: string; durationMs: number; complete: boolean; channelLayout?: ChannelLayout };
export type RecorderState = 'idle' | 'recording' | 'paused' | 'stopped';

export type PartRecorderOptions = {
  stream: MediaStream;
  /** `clinician_patient`: a teleconsultation's two channels (microphone left, call right). */
  channelLayout?: ChannelLayout;
  firstOrder: number;
  /** Time already recorded in this consultation (earlier on this page, before a reload, or on another device). */
  initialElapsedMs?: number;
  savePart: (part: SavedPart) => Promise<void>;
  onLevel?: (level: number) => void;
  /** The microphone has delivered silence for a while (true), or sound again (false); never while paused. */
  onSilence?: (silent: boolean) => void;
  onStateChange?: (state: RecorderState) => void;
  onSaveError?: (err: unknown) => void;
};

/** Opus in WebM where the browser has it (Chrome, Firefox), else whatever it records (Safari: mp4). */
export function pickMimeType(): string {
  const candidates = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
  return candidates.find((c) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(c)) ?? '';
}

type Segment = { recorder: MediaRecorder; chunks: Blob[]; order: number; activeMs: number; resumedAt: number; ended: boolean };

export class PartRecorder {
  state: RecorderState = 'idle';
  private current?: Segment;
  private order: number;
  private mimeType = pickMimeType();
  private timer?: ReturnType<typeof setInterval>;
  private meter?: ReturnType<typeof createLevelMeter>;
  private quietSince?: number;
  private saving: Promise<void> = Promise.resolve();
  private startedAt = 0;
  private elapsedBeforePause = 0;
  private readonly silence: SilenceWatch;

  constructor(private readonly opts: PartRecorderOptions) {
    this.order = opts.firstOrder;
    this.elapsedBeforePause = opts.initialElapsedMs ?? 0;
    this.silence = new SilenceWatch((silent) => opts.onSilence?.(silent));
  }

  /** Time recorded so far, pauses excluded. */
  get elapsedMs(): number {
    return this.elapsedBeforePause + (this.state === 'recording' ? performance.now() - this.startedAt : 0);
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.meter = createLevelMeter(this.opts.stream);
    this.current = this.beginSegment();
    this.startedAt = performance.now();
    this.setState('recording');
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  pause(): void {
    if (this.state !== 'recording' || !this.current) return;
    this.current.recorder.pause();
    this.current.activeMs += performance.now() - this.current.resumedAt;
    this.elapsedBeforePause += performance.now() - this.startedAt;
    this.silence.reset();
    this.setState('paused');
  }

  resume(): void {
    if (this.state !== 'paused' || !this.current) return;
    this.current.recorder.resume();
    this.current.resumedAt = performance.now();
    this.startedAt = performance.now();
    this.setState('recording');
  }

  /** Stops recording and resolves once every part, the last one included, has been saved. */
  async stop(): Promise<void> {
    if (this.state === 'idle' || this.state === 'stopped') return this.saving;
    if (this.state === 'recording') this.elapsedBeforePause += performance.now() - this.startedAt;
    clearInterval(this.timer);
    this.silence.reset();
    const last = this.current;
    this.current = undefined;
    this.setState('stopped');
    if (last) this.endSegment(last);
    await this.saving;
    await this.meter?.close();
  }

  private setState(state: RecorderState) {
    this.state = state;
    this.opts.onStateChange?.(state);
  }

  private beginSegment(): Segment {
    const recorder = new MediaRecorder(this.opts.stream, this.mimeType ? { mimeType: this.mimeType, audioBitsPerSecond: 32_000 } : undefined);
    const segment: Segment = { recorder, chunks: [], order: this.order++, activeMs: 0, resumedAt: performance.now(), ended: false };
    recorder.ondataavailable = (e) => {
      if (e.data.size === 0) return;
      segment.chunks.push(e.data);
      if (!segment.ended) this.queueSave(segment, false);
    };
    recorder.start(SLICE_MS);
    return segment;
  }

  private activeMsOf(segment: Segment): number {
    return segment.activeMs + (segment.recorder.state === 'recording' && !segment.ended ? performance.now() - segment.resumedAt : 0);
  }

  /** Saves are chained so writes reach IndexedDB in order, each after the previous one committed. */
  private queueSave(segment: Segment, complete: boolean, before?: Promise<void>) {
    this.saving = this.saving.then(async () => {
      await before;
      const type = segment.recorder.mimeType || this.mimeType || 'audio/webm';
      const blob = new Blob(segment.chunks, { type });
      if (blob.size === 0) return;
      try {
        await this.opts.savePart({
          order: segment.order,
          blob,
          mimeType: type,
          durationMs: Math.round(this.activeMsOf(segment)),
          complete,
          ...(this.opts.channelLayout ? { channelLayout: this.opts.channelLayout } : {}),
        });
      } catch (err) {
        this.opts.onSaveError?.(err);
      }
    });
  }

  private endSegment(segment: Segment) {
    const stopped = new Promise<void>((resolve) => {
      segment.recorder.onstop = () => resolve();
    });
    if (segment.recorder.state === 'recording') segment.activeMs += performance.now() - segment.resumedAt;
    segment.ended = true;
    segment.recorder.stop();
    this.queueSave(segment, true, stopped);
  }

  private tick() {
    if (this.state !== 'recording' || !this.current) return;
    const level = this.meter?.level() ?? 0;
    this.opts.onLevel?.(displayLevel(level));
    const now = performance.now();
    this.silence.sample(level, now);
    this.quietSince = level < QUIET_LEVEL ? (this.quietSince ?? now) : undefined;
    const partMs = this.current.activeMs + (now - this.current.resumedAt);
    const quietEnough = this.quietSince !== undefined && now - this.quietSince >= QUIET_HOLD_MS;
    if ((partMs >= MIN_PART_MS && quietEnough) || partMs >= MAX_PART_MS) {
      const previous = this.current;
      this.current = this.beginSegment();
      this.endSegment(previous);
      this.quietSince = undefined;
    }
  }
}
