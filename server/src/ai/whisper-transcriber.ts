/**
 * Local Whisper (whisper.cpp through the @fugood/whisper.node binding) with a ggml model file the clinic
 * provides: every language, and no word leaves the machine. The binding ships prebuilt binaries but is not
 * in the default install (its GPU variants are large): `npm run install:whisper` adds the CPU build.
 */
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { runFfmpeg } from './ffmpeg.js';
import type { TimedSegment, Transcriber, TranscriptionInput } from './transcriber.js';

export class WhisperSetupError extends Error {}

/** The part of the binding's API used here (whisper.rn-compatible). */
type WhisperContext = {
  /** `segments` times are whisper.cpp's, in hundredths of a second. */
  transcribeFile(
    file: string,
    options: { language?: string; temperature?: number; prompt?: string },
  ): { promise: Promise<{ result: string; segments?: { text: string; t0: number; t1: number }[] }> };
  release(): Promise<void>;
};
export type WhisperBinding = { initWhisper(options: { model: string; useGpu?: boolean }): Promise<WhisperContext> };

const BINDING = '@fugood/whisper.node';

export function checkModelFile(modelPath: string): void {
  try {
    accessSync(modelPath, constants.R_OK);
  } catch {
    throw new WhisperSetupError(
      `WHISPER_MODEL_PATH: the model file ${modelPath} is missing or unreadable. Point it to a whisper.cpp ggml model (e.g. ggml-base.bin).`,
    );
  }
}

async function loadBinding(): Promise<WhisperBinding> {
  try {
    // A variable specifier: the binding is optional and not known to the type checker.
    const specifier = BINDING;
    return (await import(specifier)) as WhisperBinding;
  } catch {
    throw new WhisperSetupError(`The local Whisper engine needs the ${BINDING} package: run \`npm run install:whisper\`.`);
  }
}

/** whisper.cpp reads 16 kHz mono WAV; ffmpeg turns any recorded part into that. */
const toWav = (input: string, output: string) => runFfmpeg(['-y', '-i', input, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', output]);

/** `binding` is for tests: no ggml model ships with the project, and the binding is an optional install. */
export async function createWhisperTranscriber(modelPath: string, binding?: WhisperBinding): Promise<Transcriber> {
  checkModelFile(modelPath);
  binding ??= await loadBinding();
  const context = await binding.initWhisper({ model: modelPath, useGpu: false });
  async function run(input: TranscriptionInput) {
    // The converted audio is as sensitive as the recording: it stays in the caller's private scratch folder.
    const dir = await mkdtemp(path.join(input.workDir, 'whisper-'));
    try {
      const wav = path.join(dir, 'part.wav');
      await toWav(input.filePath, wav);
      return await context.transcribeFile(wav, { language: input.language, temperature: 0, ...(input.prompt ? { prompt: input.prompt } : {}) }).promise;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return {
    info: { engine: 'local', id: `whisper.cpp:${path.basename(modelPath)}`, languages: ['pt', 'en', 'de', 'es'], note: 'Local Whisper engine.' },
    transcribe: async (input) => (await run(input)).result.trim(),
    async transcribeTimed(input): Promise<TimedSegment[]> {
      const { result, segments } = await run(input);
      if (!segments) return result.trim() ? [{ startMs: -1, endMs: -1, text: result.trim() }] : [];
      return segments.map((s) => ({ startMs: s.t0 * 10, endMs: s.t1 * 10, text: s.text.trim() })).filter((s) => s.text);
    },
  };
}
