/** Chooses the engines from the settings, once, at start. */
import type { Config } from '../config.js';
import { createLocalTranscriber, localEngineAvailable } from './local-transcriber.js';
import { createOpenAiTranscriber } from './openai-transcriber.js';
import { TranscriptionUnavailableError, type Transcriber } from './transcriber.js';

export const unavailableTranscriber: Transcriber = {
  info: { engine: 'none', languages: [], note: 'No speech engine is available on this server.' },
  transcribe: () => Promise.reject(new TranscriptionUnavailableError('No speech engine is available on this server.')),
};

export function createTranscriber(config: Config): Transcriber {
  const engine = config.transcriptionEngine;
  if (engine === 'openai' || (engine === 'auto' && config.openaiApiKey)) {
    if (!config.openaiApiKey) throw new Error('TRANSCRIPTION_ENGINE=openai needs OPENAI_API_KEY');
    return createOpenAiTranscriber({ baseUrl: config.openaiBaseUrl, apiKey: config.openaiApiKey, model: config.transcriptionModel });
  }
  if (engine === 'local' || engine === 'auto') {
    if (localEngineAvailable()) return createLocalTranscriber({ languageModel: config.localLanguageModel, dictionary: config.localDictionary });
    if (engine === 'local') throw new Error('TRANSCRIPTION_ENGINE=local needs ffmpeg and pocketsphinx (npm start installs them as root)');
  }
  return unavailableTranscriber;
}
