import type { AiEngineKind, AiEnginesView, AiEngineTestResult, FoundEngines } from '../../contract/ai-engines';
import { call } from './client';
import { api } from './instance';

export type { AiEngineKind, AiEngineState, AiEnginesView, AiEngineTestResult } from '../../contract/ai-engines';
export type FoundEngine = FoundEngines['found'][number];

/** Settings › AI engines, for the administrators of this server. */
export const aiEnginesApi = {
  get: () => call(() => api().get('v1/ai_engines').json<AiEnginesView>()),
  discover: () => call(() => api().get('v1/ai_engines/discover').json<FoundEngines>()),
  save: (kind: AiEngineKind, body: { base_url: string; model: string; api_key?: string; password: string }) =>
    call(() => api().put(`v1/ai_engines/${kind}`, { json: body }).json<AiEnginesView>()),
  reset: (kind: AiEngineKind, password: string) => call(() => api().post(`v1/ai_engines/${kind}/reset`, { json: { password } }).json<AiEnginesView>()),
  test: (kind: AiEngineKind, body: { base_url?: string; model?: string; api_key?: string }) =>
    call(() => api().post(`v1/ai_engines/${kind}/test`, { json: body }).json<AiEngineTestResult>()),
};
