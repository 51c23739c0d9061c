import { api } from './instance';
import { call } from './client';

export const generateApi = {
  document: (input: { document: string; data: Record<string, string>; template?: string }) =>
    call(() => api().post('generate', { json: input }).json<{ text: string; engine: string; uses_ai: boolean }>()),
};
