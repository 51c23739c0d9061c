/**
 * Settings › AI engines' Test button and its discovery of engines running on this machine.
 *
 * A test sends a short English clip to a speech engine, or a one-line prompt to a text engine, and reports how
 * long the answer took and what it was. Failures are told apart (nothing answers, the key is refused, no such
 * model, too slow) so an administrator knows what to fix; the endpoint's own message is passed on cut short and
 * with the key blanked out, since some servers echo part of a refused key.
 */
import path from 'node:path';
import OpenAI from 'openai';
import type { BlobStore } from '../storage/blob-store.js';
import type { TextGenerator } from './text-generator.js';
import type { Transcriber } from './transcriber.js';
import { createOpenAiTranscriber } from './openai-transcriber.js';
import { TextCutOff } from './text-cut-off.js';
import { SERVER_ROOT } from '../paths.js';
import { engineDispatcher, refuseMetadataUrl } from '../security/outbound-guard.js';

export const TEST_CLIP = {
  file: path.join(SERVER_ROOT, 'assets/engine-test-clip.wav'),
  /** What the clip says (made with espeak-ng). */
  text: 'Blood pressure one hundred and twenty over eighty.',
};
export const TEST_PROMPT = 'This is a connection test. Reply with the single word: ready';

const TEST_TIMEOUT_MS = 30_000;

export type CheckFailure = 'unreachable' | 'address_not_allowed' | 'unauthorized' | 'not_found' | 'timeout' | 'failed';
export type CheckResult =
  | { ok: true; latency_ms: number; answer: string; expected?: string }
  | { ok: false; latency_ms: number; error: CheckFailure; status: number | null; message: string };

/**
 * Text from an engine, with every secret in `secrets` blanked out, whole or in part (any 6 characters of it in a
 * row): some servers echo part of a refused key, and a hostile one may echo the Authorization header.
 */
export function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets.filter((s) => s.length >= 6)) {
    out = out.split(secret).join('[key]');
    for (let i = 0; i + 6 <= secret.length; i++) {
      const piece = secret.slice(i, i + 6);
      if (out.includes(piece)) out = out.split(piece).join('[key]');
    }
  }
  return out;
}

/** An error and the errors that caused it (the SDK wraps fetch's, which wraps the connection's). */
function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e && chain.length < 6; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** An error's text for the administrator: cut short, secrets and anything that looks like a key left out. */
function failureOf(err: unknown, secrets: string[]): Omit<Extract<CheckResult, { ok: false }>, 'latency_ms' | 'ok'> {
  const status = err instanceof OpenAI.APIError && typeof err.status === 'number' ? err.status : null;
  let error: CheckFailure = 'failed';
  if (causes(err).some((e) => (e as NodeJS.ErrnoException).code === 'EADDRNOTALLOWED')) error = 'address_not_allowed';
  else if (err instanceof OpenAI.APIConnectionTimeoutError || (err instanceof Error && err.name === 'TimeoutError')) error = 'timeout';
  else if (err instanceof OpenAI.APIConnectionError) error = 'unreachable';
  else if (status === 401 || status === 403) error = 'unauthorized';
  else if (status === 404) error = 'not_found';
  // Only what the engine itself answered is shown, cut short; an error of this server (a host it could not
  // resolve, a socket's code, a stack's words) says nothing an administrator needs beyond its kind.
  const raw = status !== null && err instanceof Error ? err.message : '';
  // Long runs of key-like characters (sk-…, gsk_…, AIza…, random hex) go whatever their prefix.
  const message = redactSecrets(raw, secrets)
    .replace(/[A-Za-z0-9_*.+/=-]{20,}/g, '[redacted]')
    .slice(0, 200);
  return { error, status, message };
}

/**
 * What a clinician is told when an engine failed: the kind of failure only. An engine's own words may hold a
 * fragment of its key or the names of hosts on the clinic's network.
 */
export function engineFailureSummary(err: unknown): string {
  // A text the engine did not finish says why in words of this server's own.
  if (err instanceof TextCutOff) return err.message;
  const { error, status } = failureOf(err, []);
  return `The AI engine could not answer (${error}${status ? `, status ${status}` : ''}).`;
}

/** The most an engine may answer to one call (a long document streamed is far less). */
export const ENGINE_ANSWER_LIMIT = 16 * 1024 * 1024;

/** Calls out of a test get no redirect (a POST could be turned to another address) and at most this much answer. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** fetch for the engines' SDK clients: redirects refused, answers larger than `maxBytes` cut off with an error. */
export function guardedFetch(maxBytes = MAX_ANSWER_BYTES): typeof fetch {
  return async (input, init) => {
    refuseMetadataUrl(input instanceof Request ? input.url : input);
    // Node's fetch takes undici's dispatcher; the DOM's RequestInit has no word for it.
    const res = await fetch(input, { ...init, redirect: 'error', dispatcher: engineDispatcher() } as unknown as RequestInit);
    if (!res.body) return res;
    let seen = 0;
    const limited = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new Error(`The engine's answer is larger than ${maxBytes} bytes.`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: Math.round(performance.now() - started) };
}

export type Endpoint = { baseUrl: string; apiKey: string; model: string };

/** `secrets`: every key the call may carry, blanked out of whatever comes back. */
export async function checkSpeech(blobs: BlobStore, target: Transcriber | Endpoint, secrets: string[]): Promise<CheckResult> {
  const transcriber =
    'transcribe' in target
      ? target
      : createOpenAiTranscriber({
          ...target,
          timeoutMs: TEST_TIMEOUT_MS,
          maxRetries: 0,
          fetch: guardedFetch(),
          signal: () => AbortSignal.timeout(TEST_TIMEOUT_MS),
        });
  const started = performance.now();
  try {
    const { value, ms } = await timed(() =>
      blobs.withScratchFolder((workDir) => transcriber.transcribe({ filePath: TEST_CLIP.file, workDir, mimeType: 'audio/wav', language: 'en' })),
    );
    return { ok: true, latency_ms: ms, answer: redactSecrets(value, secrets).slice(0, 500), expected: TEST_CLIP.text };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), ...failureOf(err, secrets) };
  }
}

export async function checkText(target: TextGenerator | Endpoint, secrets: string[]): Promise<CheckResult> {
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
      return { ok: true, latency_ms: ms, answer: redactSecrets(value.trim(), secrets).slice(0, 500) };
    }
    const client = new OpenAI({ apiKey: target.apiKey, baseURL: target.baseUrl, timeout: TEST_TIMEOUT_MS, maxRetries: 0, fetch: guardedFetch() });
    const { value, ms } = await timed(() =>
      client.chat.completions.create(
        { model: target.model, messages: [{ role: 'user', content: TEST_PROMPT }], max_tokens: 16, temperature: 0 },
        // The SDK's timeout ends when the headers arrive; this one covers the body too.
        { signal: AbortSignal.timeout(TEST_TIMEOUT_MS) },
      ),
    );
    return { ok: true, latency_ms: ms, answer: redactSecrets((value.choices[0]?.message?.content ?? '').trim(), secrets).slice(0, 500) };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), ...failureOf(err, secrets) };
  }
}

export type FoundEngine = { base_url: string; name: string; speech_models: string[]; text_models: string[] };

/** What usually listens on these ports; the answer itself decides whether anything is there. */
const KNOWN_PORTS: Record<string, string> = {
  '11434': 'Ollama',
  '8080': 'llama.cpp / whisper.cpp',
  '8000': 'vLLM / Speaches',
  '1234': 'LM Studio',
  '5001': 'KoboldCpp',
};
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
        const ids = body.data
          .map((m) => m.id)
          .filter((id): id is string => typeof id === 'string')
          .slice(0, 100);
        const port = new URL(root).port;
        return {
          base_url: `${root}/v1`,
          name: KNOWN_PORTS[port] ?? 'OpenAI-compatible server',
          speech_models: ids.filter(isSpeechModel),
          text_models: ids.filter((id) => !isSpeechModel(id)),
        };
      } catch {
        return undefined;
      }
    });
  return (await Promise.all(probes)).filter((f): f is FoundEngine => Boolean(f));
}
