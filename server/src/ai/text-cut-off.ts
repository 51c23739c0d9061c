/**
 * A text is whole only when its engine says it finished it. A model stopped by its token or context limit, a
 * stream the engine closed without its last word, an engine that went silent, one that trickles too slowly or
 * one that failed mid-answer leave a text that breaks off mid-sentence: such a text is never a finished note,
 * an assistant's reply or a screening, and nobody pays for it. The engines throw `TextCutOff` for each of
 * these; whoever writes a document, an answer or a screening fails it with the code `cutOffCode` gives.
 */
import type { ErrorCode } from '../../../contract/errors.js';

export type CutOffReason =
  /** The model reached its token limit (`finish_reason: length`) or a local model its context. */
  | 'length'
  /** The engine's content filter stopped the answer (`finish_reason: content_filter`). */
  | 'content_filter'
  /** The answer ended without the engine saying it finished it (no finish reason, an unknown one, the engine gone). */
  | 'ended_early'
  /** Nothing arrived for the whole timeout. */
  | 'stalled'
  /** Bytes kept arriving, too slowly to finish within the overall deadline. */
  | 'too_slow';

const EXPLANATIONS: Record<CutOffReason, string> = {
  length: 'it reached its length limit',
  content_filter: 'its content filter stopped it',
  ended_early: 'its answer broke off',
  stalled: 'it stopped answering',
  too_slow: 'it answered too slowly',
};

export class TextCutOff extends Error {
  override readonly name = 'TextCutOff';
  constructor(readonly reason: CutOffReason) {
    super(`The AI engine stopped before finishing (${EXPLANATIONS[reason]}).`);
  }
}

/** The error code a failed document carries and the app explains, for any failure of its engine. */
export function cutOffCode(err: unknown): ErrorCode {
  if (!(err instanceof TextCutOff)) return 'generation_failed';
  switch (err.reason) {
    case 'length':
      return 'engine_length_limit';
    case 'content_filter':
      return 'engine_content_filter';
    case 'stalled':
    case 'too_slow':
      return 'engine_timed_out';
    case 'ended_early':
      return 'engine_stopped_early';
  }
}

/**
 * What an OpenAI-compatible engine's `finish_reason` means: null when the answer is whole. `stop` is the model's
 * own end; a few servers name that end of sequence `eos` or `eos_token` (Hugging Face's). Anything else, and no
 * finish reason at all, means the text is not whole; `tool_calls` cannot happen (no tools are offered).
 */
export function finishProblem(finishReason: string | null | undefined): CutOffReason | null {
  if (finishReason === 'stop' || finishReason === 'eos' || finishReason === 'eos_token') return null;
  if (finishReason === 'length') return 'length';
  if (finishReason === 'content_filter') return 'content_filter';
  return 'ended_early';
}

/**
 * How long a streamed answer may take in all, as a multiple of the timeout: the timeout itself bounds each
 * silence, this bounds an engine that keeps sending a byte now and then without getting anywhere. A document
 * that takes the timeout to start and streams at a usable pace ends well inside it (a long note is a few
 * thousand tokens; even a slow CPU model writes several a second); waiting longer only keeps a clinician in front
 * of a spinner for a text that will not come.
 */
export const OVERALL_DEADLINE_TIMEOUTS = 5;

/**
 * Watches one streamed answer: `signal` aborts when nothing arrived for `stallMs` (every `touch`, one per byte
 * chunk received, starts that count again) or when `deadlineMs` passed since the start, whichever comes first;
 * `reason` then says which. `stop` ends the watch once the answer is in.
 */
export function watchStream(stallMs: number, deadlineMs: number) {
  const controller = new AbortController();
  let reason: 'stalled' | 'too_slow' | undefined;
  const fire = (why: 'stalled' | 'too_slow') => {
    if (reason) return;
    reason = why;
    controller.abort(new TextCutOff(why));
  };
  let stall = setTimeout(() => fire('stalled'), stallMs);
  const deadline = setTimeout(() => fire('too_slow'), deadlineMs);
  return {
    signal: controller.signal,
    get reason() {
      return reason;
    },
    touch() {
      if (reason) return;
      clearTimeout(stall);
      stall = setTimeout(() => fire('stalled'), stallMs);
    },
    stop() {
      clearTimeout(stall);
      clearTimeout(deadline);
    },
  };
}

/** A fetch whose answers' bodies `touch` the watch with every chunk of bytes (the headers count as the first). */
export function touchingFetch(base: typeof fetch, touch: () => void): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    touch();
    if (!res.body) return res;
    const touched = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          touch();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(touched, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
