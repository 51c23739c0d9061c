/**
 * Any OpenAI-compatible chat endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, a llama.cpp server) through the
 * official SDK: streaming, a timeout, and retries with backoff on 429 and 5xx (the SDK's own).
 */
import OpenAI from 'openai';
import { buildMessages } from './prompts.js';
import type { TextGenerator } from './text-generator.js';

export type OpenAiGeneratorOptions = {
  baseUrl?: string;
  apiKey: string;
  model: string;
  temperature: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** Other models a request may ask for (POST /generate's `model`); any other request gets `model`. */
  allowedModels?: string[];
  /** A fetch of the caller's (no redirects, a size limit: ai/engine-check.ts). */
  fetch?: typeof fetch;
};

export function createOpenAiGenerator(opts: OpenAiGeneratorOptions): TextGenerator {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    baseURL: opts.baseUrl,
    timeout: opts.timeoutMs ?? 120_000,
    maxRetries: opts.maxRetries ?? 3,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  // A clinician must not pick any model the endpoint has (an expensive one, or one a local server must load).
  const modelFor = (asked: string | undefined) => (asked && opts.allowedModels?.includes(asked) ? asked : opts.model);
  return {
    info: { engine: 'openai', model: opts.model, usesAi: true },
    async *write(req) {
      const { messages } = buildMessages(req);
      const stream = await client.chat.completions.create({
        model: modelFor(req.options?.model),
        temperature: req.options?.temperature ?? opts.temperature,
        messages,
        stream: true,
      });
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta?.content;
        if (delta) yield delta;
      }
    },
    async *converse(conversation) {
      const stream = await client.chat.completions.create({
        model: opts.model,
        temperature: opts.temperature,
        messages: [{ role: 'system', content: conversation.system }, ...conversation.messages],
        stream: true,
      });
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta?.content;
        if (delta) yield delta;
      }
    },
  };
}
