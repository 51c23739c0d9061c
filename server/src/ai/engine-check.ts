/**
 * Settings › AI engines' Test button and its discovery of engines running on this machine.
 *
 * A test sends a short English clip to a speech engine, or a one-line prompt to a text engine, and reports how
 * long the answer took and what it was. Failures are told apart (nothing answers, the key is refused, no such
 * model, too slow) so an administrator knows what to fix; the endpoint's own message is passed on cut short and
 * with the key blanked out, since some servers echo part of a refused key.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { BlobStore } from '../storage/blob-store.js';
import type { TextGenerator } from './text-generator.js';
import type { Transcriber } from './transcriber.js';
import { createOpenAiTranscriber } from './openai-transcriber.js';

export const TEST_CLIP = {
  file: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets/engine-test-clip.wav'),
  /** What the clip says (made with espeak-ng). */
  text: 'Blood pressure one hundred and twenty over eighty.',
};
export const TEST_PROMPT = 'This is a connection test. Reply with the single word: ready';

const TEST_TIMEOUT_MS = 30_000;

export type CheckFailure = 'unreachable' | 'unauthorized' | 'not_found' | 'timeout' | 'failed';
export type CheckResult =
  | { ok: true; latency_ms: number; answer: string; expected?: string }
  | { ok: false; latency_ms: number; error: CheckFailure; status: number | null; message: string };

function failureOf(err: unknown, secret: string | undefined): Omit<Extract<CheckResult, { ok: false }>, 'latency_ms' | 'ok'> {
  const status = err instanceof OpenAI.APIError && typeof err.status === 'number' ? err.status : null;
  let error: CheckFailure = 'failed';
  if (err instanceof OpenAI.APIConnectionTimeoutError) error = 'timeout';
  else if (err instanceof OpenAI.APIConnectionError) error = 'unreachable';
  else if (status === 401 || status === 403) error = 'unauthorized';
  else if (status === 404) error = 'not_found';
  let message = err instanceof Error ? err.message : 'error';
  if (secret && secret.length >= 4) message = message.split(secret).join('[key]');
  // A refused key is often echoed half-masked (sk-abc…xyz): no fragment of anything key-like goes back.
  message = message.replace(/\b(sk|key|token)[-_][A-Za-z0-9*_.-]{4,}/gi, '[key]').slice(0, 200);
  return { error, status, message };
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: Math.round(performance.now() - started) };
}

export type Endpoint = { baseUrl: string; apiKey: string; model: string };

export async function checkSpeech(blobs: BlobStore, target: Transcriber | Endpoint): Promise<CheckResult> {
  const transcriber = 'transcribe' in target ? target : createOpenAiTranscriber({ ...target, timeoutMs: TEST_TIMEOUT_MS });
  const started = performance.now();
  try {
    const { value, ms } = await timed(() =>
      blobs.withScratchFolder((workDir) => transcriber.transcribe({ filePath: TEST_CLIP.file, workDir, mimeType: 'audio/wav', language: 'en' })),
    );
    return { ok: true, latency_ms: ms, answer: value.slice(0, 500), expected: TEST_CLIP.text };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), ...failureOf(err, 'transcribe' in target ? undefined : target.apiKey) };
  }
}

export async function checkText(target: TextGenerator | Endpoint): Promise<CheckResult> {
  const started = performance.now();
  try {
    if ('write' in target) {
      if (!target.converse) return { ok: true, latency_ms: 0, answer: '' };
      const converse = target.converse;
      const { value, ms } = await timed(async () => {
        let answer = '';
        for await (const delta of converse({ system: 'You answer connection tests.', messages: [{ role: 'user', content: TEST_PROMPT }] })) answer += delta;
        return answer;
      });
      return { ok: true, latency_ms: ms, answer: value.trim().slice(0, 500) };
    }
    const client = new OpenAI({ apiKey: target.apiKey, baseURL: target.baseUrl, timeout: TEST_TIMEOUT_MS, maxRetries: 0 });
    const { value, ms } = await timed(() =>
      client.chat.completions.create({ model: target.model, messages: [{ role: 'user', content: TEST_PROMPT }], max_tokens: 16, temperature: 0 }),
    );
    return { ok: true, latency_ms: ms, answer: (value.choices[0]?.message?.content ?? '').trim().slice(0, 500) };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), ...failureOf(err, 'write' in target ? undefined : target.apiKey) };
  }
}

export type FoundEngine = { base_url: string; name: string; speech_models: string[]; text_models: string[] };

/** What usually listens on these ports; the answer itself decides whether anything is there. */
const KNOWN_PORTS: Record<string, string> = { '11434': 'Ollama', '8080': 'llama.cpp / whisper.cpp', '8000': 'vLLM / Speaches', '1234': 'LM Studio', '5001': 'KoboldCpp' };
const PROBE_TIMEOUT_MS = 1500;

const isSpeechModel = (id: string) => /whisper|speech|stt|transcri|parakeet|canary/i.test(id);

/**
 * Looks for OpenAI-compatible servers on this machine (`candidates`: base addresses without /v1), skipping this
 * server's own address. Only fixed local addresses are probed, never one taken from a request.
 */
export async function discoverEngines(candidates: string[], ownPort: number): Promise<FoundEngine[]> {
  const probes = candidates
    .filter((base) => {
      const url = new URL(base);
      return !(['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && Number(url.port || 80) === ownPort);
    })
    .map(async (base): Promise<FoundEngine | undefined> => {
      const root = base.replace(/\/+$/, '').replace(/\/v1$/, '');
      try {
        const res = await fetch(`${root}/v1/models`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'error' });
        if (!res.ok) return undefined;
        const body = (await res.json()) as { data?: { id?: unknown }[] };
        if (!Array.isArray(body.data)) return undefined;
        const ids = body.data.map((m) => m.id).filter((id): id is string => typeof id === 'string').slice(0, 100);
        const port = new URL(root).port;
        return { base_url: `${root}/v1`, name: KNOWN_PORTS[port] ?? 'OpenAI-compatible server', speech_models: ids.filter(isSpeechModel), text_models: ids.filter((id) => !isSpeechModel(id)) };
      } catch {
        return undefined;
      }
    });
  return (await Promise.all(probes)).filter((f): f is FoundEngine => Boolean(f));
}
