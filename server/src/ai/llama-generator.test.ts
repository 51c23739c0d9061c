import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTextGenerator } from './engines.js';
import { createLlamaGenerator, type LlamaModule } from './llama-generator.js';
import { TextCutOff } from './text-cut-off.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cn-llama-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('local model engine (node-llama-cpp) set-up', () => {
  it('a missing model file is a clear start-up error', async () => {
    const config = loadConfig({ DATA_DIR: dir, LLAMA_MODEL_PATH: path.join(dir, 'missing.gguf') });
    await expect(createTextGenerator(config)).rejects.toThrow(/LLAMA_MODEL_PATH: the model file .*missing\.gguf is missing or unreadable/);
  });

  // A real load and generation needs a GGUF model: none is on these machines and none can be downloaded here,
  // and node-llama-cpp itself is an on-demand install. What can be checked is that its absence is explained.
  it('asks for the package when the model exists but node-llama-cpp is not installed', async () => {
    const model = path.join(dir, 'tiny.gguf');
    writeFileSync(model, 'GGUF');
    const config = loadConfig({ DATA_DIR: dir, GENERATION_ENGINE: 'local', LLAMA_MODEL_PATH: model });
    await expect(createTextGenerator(config)).rejects.toThrow(/npm run install:llama/);
  });
});

describe('local model engine: a text cut at the context is not a finished one', () => {
  /** node-llama-cpp's part used here, answering `text` in two pieces and stopping for `stopReason`. */
  const fakeModule = (stopReason: string, seen: { maxTokens?: number }): LlamaModule => ({
    getLlama: async () => ({
      loadModel: async () => ({
        tokenize: (text: string) => text.split(/\s+/),
        createContext: async () => ({ contextSize: 4096, getSequence: () => ({}), dispose: async () => undefined }),
      }),
    }),
    LlamaChatSession: class {
      async promptWithMeta(_text: string, o: { maxTokens?: number; onTextChunk?: (c: string) => void }) {
        seen.maxTokens = o.maxTokens;
        o.onTextChunk?.('# Notes\n\n');
        o.onTextChunk?.('Works with volunteers as a basketb');
        return { responseText: '# Notes\n\nWorks with volunteers as a basketb', stopReason };
      }
    },
  });
  const request = {
    documentKind: 'consultation_notes',
    language: 'en' as const,
    transcript: 'Chest pain.',
    data: {},
    clinician: { name: 'Dr' },
    date: new Date(),
  };
  const model = path.join(dir, 'fake.gguf');
  writeFileSync(model, 'GGUF');

  async function run(stopReason: string) {
    const seen: { maxTokens?: number } = {};
    const engine = await createLlamaGenerator({ modelPath: model, temperature: 0, module: fakeModule(stopReason, seen) });
    let text = '';
    try {
      for await (const d of engine.write(request)) text += d;
      return { text, error: undefined, seen };
    } catch (error) {
      return { text, error, seen };
    }
  }

  it('the model reaching its token limit (the context) is a length cut-off', async () => {
    const r = await run('maxTokens');
    expect(r.error).toBeInstanceOf(TextCutOff);
    expect((r.error as TextCutOff).reason).toBe('length');
    // The limit is what the context leaves after the prompt, so the model never forgets its start.
    expect(r.seen.maxTokens).toBeGreaterThan(0);
    expect(r.seen.maxTokens).toBeLessThan(4096);
  });

  it('an aborted generation is a cut-off; one ended by the model is the text', async () => {
    expect(((await run('abort')).error as TextCutOff).reason).toBe('ended_early');
    const whole = await run('eogToken');
    expect(whole.error).toBeUndefined();
    expect(whole.text).toContain('basketb');
  });
});
