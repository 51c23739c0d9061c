import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTextGenerator } from './engines.js';

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
