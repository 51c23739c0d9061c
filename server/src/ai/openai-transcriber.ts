/**
 * Any OpenAI-compatible /audio/transcriptions endpoint (OpenAI's whisper-1, a self-hosted Whisper server):
 * every language, as accurate as the model behind it.
 */
import { createReadStream } from 'node:fs';
import OpenAI from 'openai';
import type { Transcriber, TranscriptionInput } from './transcriber.js';

export type OpenAiTranscriberOptions = { baseUrl?: string; apiKey: string; model: string; timeoutMs?: number };

export function createOpenAiTranscriber(opts: OpenAiTranscriberOptions): Transcriber {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, timeout: opts.timeoutMs ?? 120_000, maxRetries: 3 });
  return {
    info: { engine: 'openai', languages: ['pt', 'en', 'de', 'es'] },
    async transcribe(input: TranscriptionInput) {
      const result = await client.audio.transcriptions.create({
        file: createReadStream(input.filePath),
        model: opts.model,
        language: input.language,
        ...(input.prompt ? { prompt: input.prompt } : {}),
      });
      return result.text.trim();
    },
  };
}
