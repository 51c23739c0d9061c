/**
 * Any OpenAI-compatible /audio/transcriptions endpoint (OpenAI's whisper-1, a self-hosted Whisper server):
 * every language, as accurate as the model behind it.
 */
import { createReadStream } from 'node:fs';
import OpenAI from 'openai';
import type { Transcriber, TranscriptionInput } from './transcriber.js';

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

export function createOpenAiTranscriber(opts: OpenAiTranscriberOptions): Transcriber {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, timeout: opts.timeoutMs ?? 120_000, maxRetries: opts.maxRetries ?? 3, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
  return {
    info: { engine: 'openai', languages: ['pt', 'en', 'de', 'es'] },
    async transcribe(input: TranscriptionInput) {
      const result = await client.audio.transcriptions.create(
        {
          file: createReadStream(input.filePath),
          model: opts.model,
          language: input.language,
          ...(input.prompt ? { prompt: input.prompt } : {}),
        },
        opts.signal ? { signal: opts.signal() } : undefined,
      );
      return result.text.trim();
    },
  };
}
