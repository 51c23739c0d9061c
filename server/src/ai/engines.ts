/** Chooses the engines from the settings, once, at start. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { ENGINE_ANSWER_LIMIT, guardedFetch } from './engine-check.js';
import { createLocalTranscriber, localEngineAvailable } from './local-transcriber.js';
import { createOpenAiTranscriber } from './openai-transcriber.js';
import { TranscriptionUnavailableError, type Transcriber } from './transcriber.js';
import { createWhisperTranscriber } from './whisper-transcriber.js';
import { offlineComposer } from './offline-composer.js';
import { createOpenAiGenerator } from './openai-generator.js';
import { createLlamaGenerator } from './llama-generator.js';
import type { TextGenerator } from './text-generator.js';
import { SERVER_ROOT } from '../paths.js';

export const unavailableTranscriber: Transcriber = {
  info: { engine: 'none', id: 'none', languages: [], note: 'No speech engine is available on this server.' },
  transcribe: () => Promise.reject(new TranscriptionUnavailableError('No speech engine is available on this server.')),
};

/** Built by scripts/build-clinical-model.mjs (npm start and npm test run it when missing). */
const CLINICAL_DIR = path.join(SERVER_ROOT, 'speech/build');
export const CLINICAL_MODEL = {
  languageModel: path.join(CLINICAL_DIR, 'clinical.lm.bin'),
  dictionary: path.join(CLINICAL_DIR, 'clinical.dict'),
  modelName: 'clinical',
};

/** Explicit files win; otherwise the clinical model when chosen and built; otherwise Debian's generic model. */
function localModel(config: Config): { languageModel?: string; dictionary?: string; modelName?: string } {
  if (config.localLanguageModel || config.localDictionary) return { languageModel: config.localLanguageModel, dictionary: config.localDictionary };
  if (config.localSpeechModel === 'clinical' && existsSync(CLINICAL_MODEL.languageModel) && existsSync(CLINICAL_MODEL.dictionary)) return CLINICAL_MODEL;
  return {};
}

export async function createTranscriber(config: Config): Promise<Transcriber> {
  const engine = config.transcriptionEngine;
  if (engine === 'whisper' || (engine === 'auto' && config.whisperModelPath)) {
    if (!config.whisperModelPath) throw new Error('TRANSCRIPTION_ENGINE=whisper needs WHISPER_MODEL_PATH');
    return createWhisperTranscriber(config.whisperModelPath);
  }
  if (engine === 'openai' || (engine === 'auto' && config.openaiApiKey)) {
    if (!config.openaiApiKey) throw new Error('TRANSCRIPTION_ENGINE=openai needs OPENAI_API_KEY');
    return createOpenAiTranscriber({
      baseUrl: config.openaiBaseUrl,
      apiKey: config.openaiApiKey,
      model: config.transcriptionModel,
      fetch: guardedFetch(ENGINE_ANSWER_LIMIT),
    });
  }
  if (engine === 'local' || engine === 'auto') {
    if (localEngineAvailable()) return createLocalTranscriber({ ...localModel(config), processes: config.localSpeechProcesses });
    if (engine === 'local') throw new Error('TRANSCRIPTION_ENGINE=local needs ffmpeg and pocketsphinx (npm start installs them as root)');
  }
  return unavailableTranscriber;
}

/** The document writer: an OpenAI-compatible endpoint when configured, else the offline composer. */
export async function createTextGenerator(config: Config): Promise<TextGenerator> {
  if (config.generationEngine === 'local' || (config.generationEngine === 'auto' && config.llamaModelPath)) {
    if (!config.llamaModelPath) throw new Error('GENERATION_ENGINE=local needs LLAMA_MODEL_PATH');
    return createLlamaGenerator({ modelPath: config.llamaModelPath, temperature: config.generationTemperature });
  }
  if (config.generationEngine === 'openai' || (config.generationEngine === 'auto' && config.openaiApiKey)) {
    if (!config.openaiApiKey) throw new Error('GENERATION_ENGINE=openai needs OPENAI_API_KEY');
    return createOpenAiGenerator({
      baseUrl: config.openaiBaseUrl,
      apiKey: config.openaiApiKey,
      model: config.generationModel,
      allowedModels: config.generationModelsAllowed,
      temperature: config.generationTemperature,
      timeoutMs: config.generationTimeoutMs,
      // Set by the operator, yet still never on a metadata address: the same guard as engines set in the app.
      fetch: guardedFetch(ENGINE_ANSWER_LIMIT),
    });
  }
  return offlineComposer;
}
