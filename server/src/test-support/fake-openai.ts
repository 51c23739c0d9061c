/**
 * A local server speaking the OpenAI wire format, for the engines' tests: chat completions (with and without
 * streaming) and audio transcriptions. Each request takes the next scripted behaviour; all requests are kept.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * `segments`: a transcription's timed stretches, given for `verbose_json` and `diarized_json`; without them
 * those formats are refused with a 400, as models that give plain text only do.
 */
export type Behaviour =
  | { status: number; retryAfterMs?: number }
  | ({
      text: string;
      delayMs?: number;
      chunks?: number;
      segments?: { start: number; end: number; text: string; speaker?: string; avg_logprob?: number }[];
    } & Ending);

/**
 * How a chat answer ends, for the tests of answers an engine did not finish; by default as a real engine ends
 * one: a last chunk with `finish_reason: stop`, then `[DONE]`.
 */
export type Ending = {
  /** The last chunk's finish reason; null sends none (a stream that only stops). */
  finishReason?: string | null;
  /** 'close': the stream ends after the text without its last chunk or [DONE]; 'destroy': the connection is cut after `cutAfterChunks` chunks. */
  end?: 'done' | 'close' | 'destroy';
  /** With end 'destroy', or 'stall' or 'error': after how many chunks of the text. */
  cutAfterChunks?: number;
  /** Sends `cutAfterChunks` chunks, then nothing more, the connection left open until the caller hangs up. */
  stall?: boolean;
  /** Sends an error event (as OpenAI does when the model fails mid-answer) after `cutAfterChunks` chunks. */
  errorMidStream?: boolean;
  /** A pause before each chunk of the text (an engine trickling its answer). */
  chunkDelayMs?: number;
};
export type Received = { path: string; headers: IncomingMessage['headers']; body: string };

/** `port` 0 takes any free one; a browser test gives a fixed one, where the server under test looks for engines. */
/** `script`: behaviours taken in turn, or a function choosing one for each request (by its path). */
export async function startFakeOpenAi(script: Behaviour[] | ((path: string) => Behaviour), port = 0) {
  const received: Received[] = [];
  // A caller that hangs up mid-body (an aborted request) drops the connection instead of an unhandled rejection.
  const server: Server = createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const body = Buffer.concat(parts).toString('utf8');
    received.push({ path: req.url ?? '', headers: req.headers, body });
    // The model list answers without taking a scripted behaviour: discovery probes it.
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: [
            { id: 'whisper-large-v3', object: 'model' },
            { id: 'llama3.2:3b', object: 'model' },
          ],
        }),
      );
      return;
    }
    const next = (typeof script === 'function' ? script(req.url ?? '') : script.shift()) ?? { text: 'ok' };
    if ('status' in next) {
      res.writeHead(next.status, { 'content-type': 'application/json', ...(next.retryAfterMs ? { 'retry-after-ms': String(next.retryAfterMs) } : {}) });
      res.end(JSON.stringify({ error: { message: `scripted ${next.status}`, type: 'server_error' } }));
      return;
    }
    if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs));
    if (res.destroyed) return;
    if (req.url?.endsWith('/audio/transcriptions')) {
      const format = /name="response_format"\r\n\r\n([a-z_]+)/.exec(body)?.[1] ?? 'json';
      if (format !== 'json' && !next.segments) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `response_format '${format}' is not compatible with this model`, type: 'invalid_request_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: next.text, ...(format === 'json' ? {} : { segments: next.segments!.map((s, i) => ({ id: String(i), ...s })) }) }));
      return;
    }
    const stream = JSON.parse(body || '{}').stream === true;
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          choices: [
            { index: 0, message: { role: 'assistant', content: next.text }, finish_reason: next.finishReason === undefined ? 'stop' : next.finishReason },
          ],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    const event = (delta: { content?: string }, finishReason: string | null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
    const n = next.chunks ?? 3;
    const size = Math.max(1, Math.ceil(next.text.length / n));
    const cutAt = next.stall || next.errorMidStream || next.end === 'destroy' ? (next.cutAfterChunks ?? 1) : Number.POSITIVE_INFINITY;
    let sent = 0;
    for (let i = 0; i < next.text.length && sent < cutAt; i += size, sent++) {
      if (next.chunkDelayMs) await new Promise((r) => setTimeout(r, next.chunkDelayMs));
      if (res.destroyed) return;
      res.write(event({ content: next.text.slice(i, i + size) }, null));
    }
    if (next.stall) return; // left open: the caller must give up on its own
    if (next.errorMidStream) {
      res.end(`data: ${JSON.stringify({ error: { message: 'scripted failure mid-answer', type: 'server_error' } })}\n\n`);
      return;
    }
    if (next.end === 'destroy') {
      // Flushed first, so the caller has the text before the connection goes (an engine process that died).
      await new Promise((r) => setTimeout(r, 20));
      res.socket?.destroy();
      return;
    }
    if (next.end === 'close') {
      res.end();
      return;
    }
    const finishReason = next.finishReason === undefined ? 'stop' : next.finishReason;
    if (finishReason !== null) res.write(event({}, finishReason));
    res.end('data: [DONE]\n\n');
  }
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    // An answer left stalled keeps its connection open: closed with the server.
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
