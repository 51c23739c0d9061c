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
  | { text: string; delayMs?: number; chunks?: number; segments?: { start: number; end: number; text: string; speaker?: string; avg_logprob?: number }[] };
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
          choices: [{ index: 0, message: { role: 'assistant', content: next.text }, finish_reason: 'stop' }],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const n = next.chunks ?? 3;
    const size = Math.ceil(next.text.length / n);
    for (let i = 0; i < next.text.length; i += size) {
      const chunk = {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'm',
        choices: [{ index: 0, delta: { content: next.text.slice(i, i + size) }, finish_reason: null }],
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
