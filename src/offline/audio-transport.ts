import type { SessionOp, StoredChunk } from './db';
import type { TransportResult } from './uploader';

export const CLIENT_VERSION_HEADER = { 'client-version': '0.0.20' } as const;

/**
 * What an answer means for a part. Network errors, 408, 429 and 5xx are worth retrying (the part stays
 * saved); 401 too (the user signs in again and it goes on). Other 4xx mean this part will never be accepted.
 */
export function resultForStatus(status: number): TransportResult {
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 429 || status >= 500 || status === 408) return { ok: false, retry: true, reason: 'overloaded', status };
  if (status === 401) return { ok: false, retry: true, reason: 'offline', status };
  return { ok: false, retry: false, reason: 'rejected', status };
}

export function audioPartForm(chunk: StoredChunk): FormData {
  const form = new FormData();
  form.append('order', String(chunk.order));
  // The recorder's own measure: other devices' timers show it before the server has measured the part.
  form.append('duration_ms', String(Math.max(0, Math.round(chunk.durationMs))));
  if (chunk.channelLayout) form.append('channel_layout', chunk.channelLayout);
  form.append('audio_file', new Blob([chunk.data], { type: chunk.mimeType }), `part-${chunk.order}.webm`);
  return form;
}

/** A transport over plain fetch with a fixed token: what the service worker uses when no tab is open. */
export function fetchAudioTransport(token: string, fetchFn: typeof fetch = fetch) {
  return async (chunk: StoredChunk): Promise<TransportResult> => {
    try {
      const res = await fetchFn(`/v1/consultation_sessions/${chunk.sessionId}/audios`, {
        method: 'POST',
        body: audioPartForm(chunk),
        headers: { authorization: `Bearer ${token}`, ...CLIENT_VERSION_HEADER },
      });
      return resultForStatus(res.status);
    } catch {
      return { ok: false, retry: true, reason: 'offline' };
    }
  };
}

/** Where a queued start or finish goes, and what it says. */
export function sessionOpRequest(op: SessionOp): { method: 'POST' | 'PUT'; path: string; body: Record<string, unknown> } {
  if (op.kind === 'create') {
    // force: a consultation begun offline cannot ask which one to keep; the one active on the server (if any)
    // is ended, with what it recorded kept, exactly as "End it and start a new one" does.
    return {
      method: 'POST',
      path: 'v1/consultation_sessions',
      body: { id: op.sessionId, consultation_type_id: op.consultationTypeId, mobile: op.mobile ?? false, force: true },
    };
  }
  return { method: 'PUT', path: `v1/consultation_sessions/${op.sessionId}/finish`, body: { parts: op.parts } };
}

/** The service worker's starts and finishes: plain fetch with the remembered token. */
export function fetchSessionOpTransport(token: string, fetchFn: typeof fetch = fetch) {
  return async (op: SessionOp): Promise<TransportResult> => {
    const { method, path, body } = sessionOpRequest(op);
    try {
      const res = await fetchFn(`/${path}`, {
        method,
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...CLIENT_VERSION_HEADER },
      });
      return resultForStatus(res.status);
    } catch {
      return { ok: false, retry: true, reason: 'offline' };
    }
  };
}
