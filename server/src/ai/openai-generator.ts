/**
 * Any OpenAI-compatible chat endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, a llama.cpp server) through the
 * official SDK: streaming, a timeout, and retries with backoff on 429 and 5xx (the SDK's own).
 */
import OpenAI from 'openai';
import { buildMessages } from './prompts.js';
import type { TextGenerator } from './text-generator.js';

export type OpenAiGeneratorOptions = { baseUrl?: string; apiKey: string; model: string; temperature: number; timeoutMs?: number; maxRetries?: number };

export function createOpenAiGenerator(opts: OpenAiGeneratorOptions): TextGenerator {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, timeout: opts.timeoutMs ?? 120_000, maxRetries: opts.maxRetries ?? 3 });
  return {
    info: { engine: 'openai', model: opts.model, usesAi: true },
    async *write(req) {
      const { messages } = buildMessages(req);
      const stream = await client.chat.completions.create({
        model: req.options?.model ?? opts.model,
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
