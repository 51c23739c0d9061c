import { appStore, authAtom } from '../app-state';
import { CLIENT_VERSION } from './client';

/** The stream closed before `done` or `failed`: its server process stopped, or the connection broke. */
export class StreamEndedEarly extends Error {
  constructor() {
    super('stream ended early');
  }
}

/**
 * Follows a document while it is written (Server-Sent Events from …/generated_documents/{doc}/stream). fetch is
 * used rather than EventSource because the stream needs the Authorization header. Resolves at `done`, rejects at
 * `failed` or on a broken connection; `onDelta` gets each piece of text as it comes.
 */
export async function followDocument(sessionId: string, doc: string, onDelta: (text: string) => void, signal?: AbortSignal): Promise<void> {
  const token = appStore.get(authAtom)?.token;
  const res = await fetch(`/v1/consultation_sessions/${sessionId}/generated_documents/${encodeURIComponent(doc)}/stream`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'client-version': CLIENT_VERSION, accept: 'text/event-stream' },
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new StreamEndedEarly();
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = block.match(/^event: (.*)$/m)?.[1];
      const data = block.match(/^data: (.*)$/m)?.[1];
      if (event === 'delta' && data) onDelta((JSON.parse(data) as { text: string }).text);
      else if (event === 'done') return;
      else if (event === 'failed') throw new Error('generation failed');
    }
  }
}
