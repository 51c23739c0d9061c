import { api } from '../../api/instance';
import { postAudioPart } from '../../api/consultations';
import type { UploadTransport } from '../../offline/uploader';

/**
 * The uploader's transport over HTTP. Network errors, timeouts, 408, 429 and 5xx are worth retrying (the part
 * stays saved); 401 too (the user signs in again and it goes on). Other 4xx mean this part will never be
 * accepted as it is.
 */
export const httpAudioTransport: UploadTransport = async (chunk) => {
  let status: number;
  try {
    status = (await postAudioPart(api(), chunk.sessionId, chunk.order, chunk.data, chunk.mimeType)).status;
  } catch {
    return { ok: false, retry: true, reason: 'offline' };
  }
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 429 || status >= 500 || status === 408) return { ok: false, retry: true, reason: 'overloaded', status };
  if (status === 401) return { ok: false, retry: true, reason: 'offline', status };
  return { ok: false, retry: false, reason: 'rejected', status };
};
