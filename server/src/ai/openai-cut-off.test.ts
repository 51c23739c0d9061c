import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type Behaviour } from '../test-support/fake-openai.js';
import { guardedFetch } from './engine-check.js';
import { createOpenAiGenerator } from './openai-generator.js';
import type { DocumentRequest } from './text-generator.js';
import { TextCutOff } from './text-cut-off.js';

const request: DocumentRequest = {
  documentKind: 'consultation_notes',
  language: 'en',
  transcript: 'Chest pain for two days.',
  data: {},
  clinician: { name: 'Dr. Test' },
  date: new Date('2026-11-22T10:00:00Z'),
};
const NOTE = '# Notes\n\nChest pain for two days. Works with volunteers as a basketball coach.';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** An engine answering `behaviour`, with no retries (each case is one answer) and a short timeout. */
async function engine(behaviour: Behaviour, timeoutMs = 400) {
  const fake = await startFakeOpenAi([behaviour]);
  close = fake.close;
  // The fetch the server gives every engine (redirects refused, a size limit) is the one watched.
  return createOpenAiGenerator({ baseUrl: fake.baseUrl, apiKey: 'k', model: 'm', temperature: 0, timeoutMs, maxRetries: 0, fetch: guardedFetch() });
}

/** What was written before the engine stopped, and why it stopped (undefined: it finished). */
async function run(stream: AsyncIterable<string>) {
  let text = '';
  const started = performance.now();
  try {
    for await (const d of stream) text += d;
    return { text, error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { text, error, ms: performance.now() - started };
  }
}

describe('an answer counts only when the engine finished it', () => {
  it('a whole answer (finish_reason stop, then [DONE]) is the text', async () => {
    const r = await run((await engine({ text: NOTE })).write(request));
    expect(r.error).toBeUndefined();
    expect(r.text).toBe(NOTE);
  });

  it('finish_reason length (the token limit) is a cut-off, with the text written so far', async () => {
    const r = await run((await engine({ text: NOTE.slice(0, 40), finishReason: 'length' })).write(request));
    expect(r.error).toBeInstanceOf(TextCutOff);
    expect((r.error as TextCutOff).reason).toBe('length');
    expect(r.text).toBe(NOTE.slice(0, 40));
  });

  it('finish_reason content_filter is a cut-off', async () => {
    const r = await run((await engine({ text: NOTE, finishReason: 'content_filter' })).write(request));
    expect((r.error as TextCutOff).reason).toBe('content_filter');
  });

  it('a stream that closes without a finish reason or [DONE] is a cut-off', async () => {
    const r = await run((await engine({ text: NOTE, end: 'close' })).write(request));
    expect((r.error as TextCutOff).reason).toBe('ended_early');
    expect(r.text).toBe(NOTE);
  });

  it('[DONE] without any finish reason is not taken as finished', async () => {
    const r = await run((await engine({ text: NOTE, finishReason: null })).write(request));
    expect((r.error as TextCutOff).reason).toBe('ended_early');
  });

  it('an engine whose connection dies mid-answer is a cut-off', async () => {
    const r = await run((await engine({ text: NOTE, chunks: 6, end: 'destroy', cutAfterChunks: 2 })).write(request));
    expect(r.error).toBeInstanceOf(TextCutOff);
    expect((r.error as TextCutOff).reason).toBe('ended_early');
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.text.length).toBeLessThan(NOTE.length);
  });

  it('an error event mid-answer is a cut-off', async () => {
    const r = await run((await engine({ text: NOTE, chunks: 6, errorMidStream: true, cutAfterChunks: 2 })).write(request));
    expect((r.error as TextCutOff).reason).toBe('ended_early');
  });

  it('an engine gone silent mid-answer fails at the configured timeout, from its last byte', async () => {
    const r = await run((await engine({ text: NOTE, chunks: 6, stall: true, cutAfterChunks: 2 }, 300)).write(request));
    expect((r.error as TextCutOff).reason).toBe('stalled');
    expect(r.text.length).toBeGreaterThan(0);
    // The timeout, not the connection's five minutes: well under a few seconds here.
    expect(r.ms).toBeGreaterThanOrEqual(280);
    expect(r.ms).toBeLessThan(3000);
  });

  it('an engine silent from the start fails at the timeout too', async () => {
    const r = await run((await engine({ text: NOTE, delayMs: 5000 }, 300)).write(request));
    expect((r.error as TextCutOff).reason).toBe('stalled');
    expect(r.ms).toBeLessThan(3000);
  });

  it('bytes arriving within the timeout keep a slow answer going', async () => {
    // Each pause is under the timeout and the whole well inside the overall deadline (five timeouts).
    const r = await run((await engine({ text: NOTE, chunks: 4, chunkDelayMs: 200 }, 400)).write(request));
    expect(r.error).toBeUndefined();
    expect(r.text).toBe(NOTE);
  });

  it('a trickle that never stalls is still bounded by the overall deadline', async () => {
    // Every pause under the timeout, but 40 of them: past five timeouts in all.
    const r = await run((await engine({ text: NOTE, chunks: 40, chunkDelayMs: 150 }, 250)).write(request));
    expect((r.error as TextCutOff).reason).toBe('too_slow');
    expect(r.ms).toBeGreaterThanOrEqual(5 * 250 - 20);
    expect(r.ms).toBeLessThan(5 * 250 + 3000);
    expect(r.text.length).toBeLessThan(NOTE.length);
  });

  it('the assistant and the screener (converse) are held to the same rule', async () => {
    const r = await run(
      (await engine({ text: '{"criteria":[{"id":"a"', finishReason: 'length' })).converse!({ system: 's', messages: [{ role: 'user', content: 'q' }] }),
    );
    expect((r.error as TextCutOff).reason).toBe('length');
  });
});
