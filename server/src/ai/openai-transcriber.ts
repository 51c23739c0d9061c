/**
 * Any OpenAI-compatible /audio/transcriptions endpoint (OpenAI's whisper-1, a self-hosted Whisper server):
 * every language, as accurate as the model behind it.
 */
import { createReadStream } from 'node:fs';
import OpenAI, { BadRequestError } from 'openai';
import type { TranscriptionDiarized } from 'openai/resources/audio/transcriptions';
import type { TimedSegment, Transcriber, TranscriptionInput } from './transcriber.js';
import { markedText } from './word-confidence.js';

export type OpenAiTranscriberOptions = {
  baseUrl?: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** A fetch of the caller's (no redirects, a size limit: ai/engine-check.ts). */
  fetch?: typeof fetch;
  /** A signal per call: the SDK's timeout stops once the headers arrive, this one covers the answer too. */
  signal?: () => AbortSignal;
};

/** Models that tell speakers apart (OpenAI's gpt-4o-transcribe-diarize and servers that copy its name). */
export const isDiarizingModel = (model: string) => /diariz/i.test(model);

export function createOpenAiTranscriber(opts: OpenAiTranscriberOptions): Transcriber {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    baseURL: opts.baseUrl,
    timeout: opts.timeoutMs ?? 120_000,
    maxRetries: opts.maxRetries ?? 3,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const diarizes = isDiarizingModel(opts.model);
  const call = () => (opts.signal ? { signal: opts.signal() } : undefined);
  const common = (input: TranscriptionInput) => ({
    file: createReadStream(input.filePath),
    model: opts.model,
    language: input.language,
    // The diarizing model refuses a prompt.
    ...(input.prompt && !diarizes ? { prompt: input.prompt } : {}),
  });
  /** Set once the model refused timed output (gpt-4o-transcribe gives plain text only): not asked again. */
  let untimed = false;

  async function plainText(input: TranscriptionInput) {
    const result = await client.audio.transcriptions.create(common(input), call());
    return result.text.trim();
  }

  /**
   * The words in timed segments, each with its mean token probability (Whisper's avg_logprob) where the server
   * gives it; undefined once the model refused the format (gpt-4o-transcribe gives plain text only).
   */
  async function verboseSegments(input: TranscriptionInput): Promise<TimedSegment[] | undefined> {
    if (untimed) return undefined;
    try {
      const result = await client.audio.transcriptions.create(
        { ...common(input), response_format: 'verbose_json', timestamp_granularities: ['segment'] },
        call(),
      );
      if (!result.segments) return result.text?.trim() ? [{ startMs: -1, endMs: -1, text: result.text.trim() }] : [];
      return result.segments
        .map((s) => ({
          startMs: Math.round(s.start * 1000),
          endMs: Math.round(s.end * 1000),
          text: s.text.trim(),
          ...(typeof s.avg_logprob === 'number' && Number.isFinite(s.avg_logprob) ? { confidence: Math.exp(Math.min(0, s.avg_logprob)) } : {}),
        }))
        .filter((s) => s.text);
    } catch (err) {
      // Only a refusal of the format itself (too short or broken audio is a 400 too, and is the part's own).
      if (!(err instanceof BadRequestError && /response_format|timestamp|verbose/i.test(err.message))) throw err;
      untimed = true;
      return undefined;
    }
  }

  /** The part's text, its uncertain words marked where the server says how sure it is. */
  async function transcribe(input: TranscriptionInput) {
    const segments = diarizes ? undefined : await verboseSegments(input);
    return segments ? markedText(segments) : plainText(input);
  }

  async function transcribeTimed(input: TranscriptionInput): Promise<TimedSegment[]> {
    if (diarizes) {
      // The SDK's overloads type no diarized answer (its TranscriptionDiarized is the shape of this one).
      const result = (await client.audio.transcriptions.create(
        { ...common(input), response_format: 'diarized_json', chunking_strategy: 'auto' },
        call(),
      )) as unknown as TranscriptionDiarized;
      // A server that gives no segments still gave the words: one voice, untimed.
      if (!Array.isArray(result.segments)) return result.text?.trim() ? [{ startMs: -1, endMs: -1, text: result.text.trim() }] : [];
      return result.segments
        .map((s) => ({
          startMs: Math.round(s.start * 1000),
          endMs: Math.round(s.end * 1000),
          text: String(s.text ?? '').trim(),
          speaker: String(s.speaker ?? ''),
        }))
        .filter((s) => s.text);
    }
    const segments = await verboseSegments(input);
    if (segments) return segments;
    // No times: the caller places the text by where the voice is heard in its channel.
    const text = await plainText(input);
    return text ? [{ startMs: -1, endMs: -1, text }] : [];
  }

  return {
    info: { engine: 'openai', id: `openai:${opts.model}`, languages: ['pt', 'en', 'de', 'es'], ...(diarizes ? { diarizes } : {}) },
    transcribe,
    transcribeTimed,
  };
}
