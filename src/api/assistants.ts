import { api } from './instance';
import { call } from './client';

export type AssistantView = { key: string; name: string; description: string };
export type AssistantMessage = { role: 'user' | 'assistant'; content: string; created_at: string };
export type AssistantRun = {
  run_key: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  error: string | null;
  /** Why a failed run has no reply, when its engine stopped before finishing it (contract/errors.ts). */
  error_code?: string | null;
  messages: AssistantMessage[];
};
export type AssistantKeys = { assistant_key: string; thread_key: string; run_key: string };

export const assistantsApi = {
  list: () => call(() => api().get('assistants').json<{ assistants: AssistantView[]; available: boolean }>()),
  ask: (input: { message: string; assistant_key: string; thread_key?: string }) =>
    call(() => api().post('assistant', { json: input }).json<AssistantKeys & { status: string }>()),
  run: (keys: AssistantKeys) => call(() => api().get('assistant/run', { searchParams: keys }).json<AssistantRun>()),
};
