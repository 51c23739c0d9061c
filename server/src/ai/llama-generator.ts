/**
 * A local model through node-llama-cpp (its prebuilt CPU binary ships in the npm package) from a GGUF file the
 * clinic provides: documents written without any word leaving the machine. The package brings several hundred
 * MB of optional GPU builds, so it is not in the default install: `npm run install:llama` adds it.
 */
import { accessSync, constants } from 'node:fs';
import { buildMessages } from './prompts.js';
import type { TextGenerator } from './text-generator.js';
import { TextCutOff } from './text-cut-off.js';

export class LlamaSetupError extends Error {}

/** The part of node-llama-cpp used here. */
export type LlamaModule = {
  getLlama(options: { gpu: false; build: 'never' }): Promise<{ loadModel(o: { modelPath: string }): Promise<LlamaModel> }>;
  LlamaChatSession: new (o: {
    contextSequence: unknown;
    systemPrompt?: string;
  }) => {
    promptWithMeta(
      text: string,
      o: { temperature?: number; maxTokens?: number; onTextChunk?: (chunk: string) => void },
    ): Promise<{ responseText: string; stopReason: string }>;
    dispose?: () => void;
  };
};
type LlamaModel = {
  tokenize(text: string): readonly unknown[];
  createContext(): Promise<{ contextSize: number; getSequence(): unknown; dispose(): Promise<void> }>;
};

/** Room kept in the context for the chat template's own tokens around the system prompt and the request. */
const TEMPLATE_TOKENS = 128;

/**
 * Whether the local model finished its text: it ended on its own end-of-generation token (or a stop trigger of
 * its chat template). `maxTokens` is a text cut at the context's limit, `abort` one stopped before the end.
 */
const LLAMA_FINISHED = new Set(['eogToken', 'stopGenerationTrigger']);

export function checkGgufFile(modelPath: string): void {
  try {
    accessSync(modelPath, constants.R_OK);
  } catch {
    throw new LlamaSetupError(`LLAMA_MODEL_PATH: the model file ${modelPath} is missing or unreadable. Point it to a GGUF model.`);
  }
}

async function loadModule(): Promise<LlamaModule> {
  try {
    const specifier = 'node-llama-cpp';
    return (await import(specifier)) as LlamaModule;
  } catch {
    throw new LlamaSetupError('The local model engine needs the node-llama-cpp package: run `npm run install:llama`.');
  }
}

/** `module`: node-llama-cpp itself, or the tests' stand-in for it. */
export async function createLlamaGenerator(opts: { modelPath: string; temperature: number; module?: LlamaModule }): Promise<TextGenerator> {
  checkGgufFile(opts.modelPath);
  const mod = opts.module ?? (await loadModule());
  const llama = await mod.getLlama({ gpu: false, build: 'never' });
  const model = await llama.loadModel({ modelPath: opts.modelPath });
  return {
    info: { engine: 'local', model: opts.modelPath.split('/').pop(), usesAi: true },
    async *write(req) {
      const { messages } = buildMessages(req);
      const context = await model.createContext();
      const session = new mod.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: messages[0]!.content });
      // node-llama-cpp reports text through a callback; a small queue turns it into the stream the port yields.
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      let finished = false;
      let failure: unknown;
      // The text must end inside the context: a model that reaches its end would otherwise forget the start of
      // the transcript (node-llama-cpp shifts the context) and go on writing from less than it was given.
      const prompted = model.tokenize(`${messages[0]!.content}\n${messages[1]!.content}`).length + TEMPLATE_TOKENS;
      const maxTokens = Math.max(1, context.contextSize - prompted);
      void session
        .promptWithMeta(messages[1]!.content, {
          temperature: req.options?.temperature ?? opts.temperature,
          maxTokens,
          onTextChunk: (c) => (queue.push(c), wake?.()),
        })
        .then((meta) => {
          if (!LLAMA_FINISHED.has(meta.stopReason)) failure = new TextCutOff(meta.stopReason === 'maxTokens' ? 'length' : 'ended_early');
        })
        .catch((err: unknown) => (failure = err))
        .finally(() => ((finished = true), wake?.()));
      try {
        while (!finished || queue.length) {
          if (queue.length) yield queue.shift()!;
          else await new Promise<void>((r) => (wake = r));
        }
        if (failure) throw failure;
      } finally {
        session.dispose?.();
        await context.dispose();
      }
    },
  };
}
