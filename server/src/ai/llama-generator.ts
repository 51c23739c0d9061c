/**
 * A local model through node-llama-cpp (its prebuilt CPU binary ships in the npm package) from a GGUF file the
 * clinic provides: documents written without any word leaving the machine. The package brings several hundred
 * MB of optional GPU builds, so it is not in the default install: `npm run install:llama` adds it.
 */
import { accessSync, constants } from 'node:fs';
import { buildMessages } from './prompts.js';
import type { TextGenerator } from './text-generator.js';

export class LlamaSetupError extends Error {}

/** The part of node-llama-cpp used here. */
type LlamaModule = {
  getLlama(options: { gpu: false; build: 'never' }): Promise<{ loadModel(o: { modelPath: string }): Promise<LlamaModel> }>;
  LlamaChatSession: new (o: {
    contextSequence: unknown;
    systemPrompt?: string;
  }) => {
    prompt(text: string, o: { temperature?: number; onTextChunk?: (chunk: string) => void }): Promise<string>;
    dispose?: () => void;
  };
};
type LlamaModel = { createContext(): Promise<{ getSequence(): unknown; dispose(): Promise<void> }> };

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

export async function createLlamaGenerator(opts: { modelPath: string; temperature: number }): Promise<TextGenerator> {
  checkGgufFile(opts.modelPath);
  const mod = await loadModule();
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
      void session
        .prompt(messages[1]!.content, { temperature: req.options?.temperature ?? opts.temperature, onTextChunk: (c) => (queue.push(c), wake?.()) })
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
