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

/** The finish request's body: how many parts this device recorded, so the server waits for all of them. */
export const finishBody = (op: SessionOp) => ({ parts: op.parts });

/** The service worker's finish: plain fetch with the remembered token. */
export function fetchFinishTransport(token: string, fetchFn: typeof fetch = fetch) {
  return async (op: SessionOp): Promise<TransportResult> => {
    try {
      const res = await fetchFn(`/v1/consultation_sessions/${op.sessionId}/finish`, {
        method: 'PUT',
        body: JSON.stringify(finishBody(op)),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...CLIENT_VERSION_HEADER },
      });
      return resultForStatus(res.status);
    } catch {
      return { ok: false, retry: true, reason: 'offline' };
    }
  };
}
