import { api } from '../../api/instance';
import type { SessionDetail } from '../../api/consultations';
import { audioPartForm, resultForStatus, sessionOpRequest } from '../../offline/audio-transport';
import type { SessionOpTransport, UploadTransport } from '../../offline/uploader';
import { cacheSession } from '../consultation/useConsultationSession';

/** The page's transport: the app's HTTP client (token, locale, client version), one part per request. */
export const httpAudioTransport: UploadTransport = async (chunk) => {
  try {
    // The app's client adds this browser's id: the recorder's uploads keep its claim on the recording alive.
    const res = await api().post(`v1/consultation_sessions/${chunk.sessionId}/audios`, { body: audioPartForm(chunk), throwHttpErrors: false });
    return resultForStatus(res.status);
  } catch {
    return { ok: false, retry: true, reason: 'offline' };
  }
};

/** The page's starts and finishes: on success the local copy of the session takes the server's state at once. */
export const httpSessionOpTransport: SessionOpTransport = async (op) => {
  const { method, path, body } = sessionOpRequest(op);
  try {
    const res = await api()(path, { method, json: body, throwHttpErrors: false });
    const result = resultForStatus(res.status);
    if (result.ok) await cacheSession(((await res.json()) as { consultation_session: SessionDetail }).consultation_session).catch(() => undefined);
    return result;
  } catch {
    return { ok: false, retry: true, reason: 'offline' };
  }
};
