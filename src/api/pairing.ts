import { api } from './instance';
import { call } from './client';

export const pairingApi = {
  qrToken: () => call(() => api().post('v1/qr_token').json<{ token: string; url: string; expires_at: string }>()),
};
