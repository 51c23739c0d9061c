import { api } from '../../api/instance';
import { audioPartForm, resultForStatus } from '../../offline/audio-transport';
import type { UploadTransport } from '../../offline/uploader';

/** The page's transport: the app's HTTP client (token, locale, client version), one part per request. */
export const httpAudioTransport: UploadTransport = async (chunk) => {
  try {
    const res = await api().post(`v1/consultation_sessions/${chunk.sessionId}/audios`, { body: audioPartForm(chunk), throwHttpErrors: false });
    return resultForStatus(res.status);
  } catch {
    return { ok: false, retry: true, reason: 'offline' };
  }
};
