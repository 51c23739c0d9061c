/**
 * The engines the server runs, changeable while it runs: the environment's settings decide when they name an
 * engine (they win, as the README says); otherwise an endpoint an administrator saved in the app; otherwise the
 * embedded defaults (the local speech engine, the offline composer).
 *
 * Everything else holds the stable `transcriber` and `textGenerator` of this module, which pass each call to the
 * engine current at that moment: a document already being written finishes on the engine it started with.
 * Every process re-reads the saved settings every few seconds, so a change made through one API process
 * reaches the others and the workers without a restart.
 */
import type { Config } from '../config.js';
import type { KeyRing } from '../storage/master-keys.js';
import { describeErrorSafely } from '../errors/safe-errors.js';
import { createTextGenerator, createTranscriber } from './engines.js';
import { openApiKey, type EngineKind, type SavedEngine, type SavedEngineSource } from './engine-settings.js';
import { createOpenAiGenerator } from './openai-generator.js';
import { createOpenAiTranscriber } from './openai-transcriber.js';
import { ENGINE_ANSWER_LIMIT as ANSWER_LIMIT, guardedFetch } from './engine-check.js';
import { withStorableOutput, withStorableTranscripts } from './storable-text.js';
import type { TextGenerator } from './text-generator.js';
import type { Transcriber, TranscriptionInput } from './transcriber.js';

export type EngineSource = 'environment' | 'app' | 'default';
export type ActiveEngine = { engine: string; model: string | null; baseUrl: string | null; source: EngineSource };

/** The OpenAI SDK refuses an empty key; a local server (Ollama, llama.cpp) ignores whatever is sent. */
export const NO_KEY = 'no-key';

/** Whether the environment names the engine of this kind (then the app's setting is shown but not used). */
export function environmentDecides(config: Config, kind: EngineKind): boolean {
  if (config.openaiApiKey) return true;
  return kind === 'speech'
    ? config.transcriptionEngine !== 'auto' || Boolean(config.whisperModelPath)
    : config.generationEngine !== 'auto' || Boolean(config.llamaModelPath);
}

/** The log lines the switch writes; the server's logger is one, and the switch needs no more of it. */
type EngineLog = { error(fields: object, message: string): void; warn(fields: object, message: string): void };

export type EngineSwitch = {
  readonly transcriber: Transcriber;
  readonly textGenerator: TextGenerator;
  active(kind: EngineKind): ActiveEngine;
  lockedByEnvironment(kind: EngineKind): boolean;
  /** Why the saved setting of this kind is not running (its key does not open here), if it is not. */
  problem(kind: EngineKind): string | undefined;
  /** The master keys that seal the saved API keys. */
  readonly keys: KeyRing;
  /** Reads the saved settings again and swaps engines when they changed (after a save, and every few seconds). */
  reload(): Promise<void>;
  stop(): void;
};

export async function createEngineSwitch(opts: {
  config: Config;
  /** The settings saved in the app (modules/ai_engines/saved-engines.ts reads them from the database). */
  saved: SavedEngineSource;
  keys: KeyRing;
  log: EngineLog;
  /** Engines given by the caller (tests): fixed, like an environment setting. */
  fixed?: { transcriber?: Transcriber; textGenerator?: TextGenerator };
  refreshEveryMs?: number;
}): Promise<EngineSwitch> {
  const { config, saved: savedSource, keys, log } = opts;
  const locked = (kind: EngineKind) =>
    (kind === 'speech' ? Boolean(opts.fixed?.transcriber) : Boolean(opts.fixed?.textGenerator)) || environmentDecides(config, kind);

  const defaultTranscriber = withStorableTranscripts(opts.fixed?.transcriber ?? (await createTranscriber(config)));
  const defaultGenerator = withStorableOutput(opts.fixed?.textGenerator ?? (await createTextGenerator(config)));
  const fromEnvironment = (kind: EngineKind): ActiveEngine => {
    if (kind === 'speech') {
      const engine = defaultTranscriber.info.engine;
      return {
        engine,
        model: engine === 'openai' ? config.transcriptionModel : null,
        baseUrl: engine === 'openai' ? (config.openaiBaseUrl ?? 'https://api.openai.com/v1') : null,
        source: locked(kind) ? 'environment' : 'default',
      };
    }
    const { engine, model } = defaultGenerator.info;
    return {
      engine,
      model: model ?? null,
      baseUrl: engine === 'openai' ? (config.openaiBaseUrl ?? 'https://api.openai.com/v1') : null,
      source: locked(kind) ? 'environment' : 'default',
    };
  };

  let transcriber = defaultTranscriber;
  let generator = defaultGenerator;
  const active: Record<EngineKind, ActiveEngine> = { speech: fromEnvironment('speech'), text: fromEnvironment('text') };
  let stamp: string | undefined;

  const apiKeyOf = (saved: SavedEngine) => {
    if (!saved.apiKeySealed) return NO_KEY;
    try {
      return openApiKey(keys, saved.kind, saved.apiKeySealed);
    } catch (err) {
      throw new Error(
        `The saved ${saved.kind} engine's API key does not open here (${describeErrorSafely(err)}): every process of the server needs the same master key (ENCRYPTION_KEY, or the same DATA_DIR).`,
      );
    }
  };
  const fromApp = (saved: SavedEngine): ActiveEngine => ({ engine: 'openai', model: saved.model, baseUrl: saved.baseUrl, source: 'app' });

  const problems: Partial<Record<EngineKind, string>> = {};

  /** Each kind on its own: a saved key that does not open leaves that kind on its default, not the other. */
  function apply(saved: Partial<Record<EngineKind, SavedEngine>>) {
    for (const kind of ['speech', 'text'] as const) {
      if (locked(kind)) continue;
      const s = saved[kind];
      delete problems[kind];
      try {
        if (kind === 'speech') {
          transcriber = s
            ? withStorableTranscripts(createOpenAiTranscriber({ baseUrl: s.baseUrl, apiKey: apiKeyOf(s), model: s.model, fetch: guardedFetch(ANSWER_LIMIT) }))
            : defaultTranscriber;
        } else {
          generator = s
            ? withStorableOutput(
                createOpenAiGenerator({
                  baseUrl: s.baseUrl,
                  apiKey: apiKeyOf(s),
                  model: s.model,
                  temperature: config.generationTemperature,
                  timeoutMs: config.generationTimeoutMs,
                  fetch: guardedFetch(ANSWER_LIMIT),
                }),
              )
            : defaultGenerator;
        }
        active[kind] = s ? fromApp(s) : fromEnvironment(kind);
      } catch (err) {
        problems[kind] = describeErrorSafely(err);
        if (kind === 'speech') transcriber = defaultTranscriber;
        else generator = defaultGenerator;
        active[kind] = fromEnvironment(kind);
        log.error({ kind, reason: problems[kind] }, 'the AI engine saved in the app cannot be used; running the default');
      }
    }
  }

  // One reload at a time: a timer's reload finishing after a save's would put the old engines back.
  let queue: Promise<void> = Promise.resolve();
  function reload(): Promise<void> {
    const run = queue.then(async () => {
      if (locked('speech') && locked('text')) return;
      const next = await savedSource.stamp();
      if (next === stamp) return;
      apply(await savedSource.read());
      stamp = next;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  await reload().catch((err) => log.error({ reason: describeErrorSafely(err) }, 'the AI engines saved in the app could not be used; running the defaults'));
  const timer = opts.refreshEveryMs
    ? setInterval(() => void reload().catch((err) => log.warn({ reason: describeErrorSafely(err) }, 'AI engine settings not re-read')), opts.refreshEveryMs)
    : undefined;
  timer?.unref();

  return {
    transcriber: {
      get info() {
        return transcriber.info;
      },
      transcribe: (input) => transcriber.transcribe(input),
      // A getter, as converse below: whether the current engine gives times is asked of it at each call.
      get transcribeTimed() {
        const current = transcriber;
        return current.transcribeTimed ? (input: TranscriptionInput) => current.transcribeTimed!(input) : undefined;
      },
    },
    textGenerator: {
      get info() {
        return generator.info;
      },
      write: (request) => generator.write(request),
      // A getter: the assistant and the screener ask whether the current engine can converse at all.
      get converse() {
        const current = generator;
        return current.converse ? (conversation: Parameters<NonNullable<TextGenerator['converse']>>[0]) => current.converse!(conversation) : undefined;
      },
    },
    active: (kind) => ({ ...active[kind] }),
    lockedByEnvironment: locked,
    problem: (kind) => problems[kind],
    keys,
    reload,
    stop: () => clearInterval(timer),
  };
}
