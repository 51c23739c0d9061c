/**
 * Any OpenAI-compatible chat endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, a llama.cpp server) through the
 * official SDK: streaming, a timeout, and retries with backoff on 429 and 5xx (the SDK's own).
 *
 * An answer counts only when the engine finished it (ai/text-cut-off.ts): its last chunk says `stop`. The SDK's
 * own timeout ends when the headers arrive, and the connection's (undici's, five minutes) knows no setting, so
 * each answer is watched here: a silence of the configured timeout, measured from the last byte received, or
 * OVERALL_DEADLINE_TIMEOUTS times it in all, ends it as cut off.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { buildMessages } from './prompts.js';
import type { TextGenerator } from './text-generator.js';
import { finishProblem, OVERALL_DEADLINE_TIMEOUTS, TextCutOff, touchingFetch, watchStream } from './text-cut-off.js';

export type OpenAiGeneratorOptions = {
  baseUrl?: string;
  apiKey: string;
  model: string;
  temperature: number;
  /** The longest silence an answer may have (also before its first byte); five times it is the whole answer's limit. */
  timeoutMs?: number;
  maxRetries?: number;
  /** Other models a request may ask for (POST /generate's `model`); any other request gets `model`. */
  allowedModels?: string[];
  /** A fetch of the caller's (no redirects, a size limit: ai/engine-check.ts). */
  fetch?: typeof fetch;
};

export function createOpenAiGenerator(opts: OpenAiGeneratorOptions): TextGenerator {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const client = new OpenAI({
    apiKey: opts.apiKey,
    baseURL: opts.baseUrl,
    // The watch below decides when an answer has waited too long, measured from its last byte; the SDK's own
    // timeout (from the request, retried) only backs it up.
    timeout: timeoutMs * OVERALL_DEADLINE_TIMEOUTS,
    maxRetries: opts.maxRetries ?? 3,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const baseFetch = opts.fetch ?? fetch;
  // A clinician must not pick any model the endpoint has (an expensive one, or one a local server must load).
  const modelFor = (asked: string | undefined) => (asked && opts.allowedModels?.includes(asked) ? asked : opts.model);

  /** The answer's text as it streams in; throws TextCutOff when the engine did not finish it. */
  async function* streamed(params: Omit<ChatCompletionCreateParamsStreaming, 'stream'>): AsyncGenerator<string> {
    const watch = watchStream(timeoutMs, timeoutMs * OVERALL_DEADLINE_TIMEOUTS);
    // A client of this answer's own, whose fetch tells the watch of every byte (the SDK shows whole events only).
    const watched = client.withOptions({ fetch: touchingFetch(baseFetch, watch.touch) });
    let finish: string | null | undefined;
    let begun = false;
    try {
      const stream = await watched.chat.completions.create({ ...params, stream: true }, { signal: watch.signal });
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const delta = choice?.delta?.content;
        if (delta) {
          begun = true;
          yield delta;
        }
        if (choice?.finish_reason) finish = choice.finish_reason;
      }
    } catch (err) {
      if (watch.reason) throw new TextCutOff(watch.reason);
      // An engine that fails once its text has begun (its process died, an error event mid-stream) broke it off.
      if (begun) throw Object.assign(new TextCutOff('ended_early'), { cause: err });
      throw err;
    } finally {
      watch.stop();
    }
    // The SDK ends a stream it was asked to abort without an error: the watch says whether it did.
    if (watch.reason) throw new TextCutOff(watch.reason);
    const problem = finishProblem(finish);
    if (problem) throw new TextCutOff(problem);
  }

  return {
    info: { engine: 'openai', model: opts.model, usesAi: true },
    write(req) {
      const { messages } = buildMessages(req);
      return streamed({ model: modelFor(req.options?.model), temperature: req.options?.temperature ?? opts.temperature, messages });
    },
    converse(conversation) {
      return streamed({
        model: opts.model,
        temperature: opts.temperature,
        messages: [{ role: 'system', content: conversation.system }, ...conversation.messages],
      });
    },
  };
}
