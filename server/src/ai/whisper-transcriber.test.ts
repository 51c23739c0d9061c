import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTranscriber } from './engines.js';
import { loadConfig } from '../config.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cn-whisper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('local Whisper engine set-up', () => {
  it('a missing model file is a clear start-up error', async () => {
    const config = loadConfig({ DATA_DIR: dir, WHISPER_MODEL_PATH: path.join(dir, 'nope.bin') });
    await expect(createTranscriber(config)).rejects.toThrow(/WHISPER_MODEL_PATH: the model file .*nope\.bin is missing or unreadable/);
  });

  it('asks for the binding when the model file exists but the package is not installed', async () => {
    const model = path.join(dir, 'ggml-tiny.bin');
    writeFileSync(model, 'not a real model');
    const config = loadConfig({ DATA_DIR: dir, TRANSCRIPTION_ENGINE: 'whisper', WHISPER_MODEL_PATH: model });
    // No ggml model ships on this machine and no weights can be downloaded, so a real transcription cannot run
    // here; without the optional binding installed the error must say how to install it.
    await expect(createTranscriber(config)).rejects.toThrow(/npm run install:whisper/);
  });
});
