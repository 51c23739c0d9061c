import { api } from './instance';
import { call } from './client';

import type { ConsultationTypeView, SessionDetail, SessionSummary } from '../../contract/consultations';

export type { ConsultationTypeView, SessionDetail, SessionSummary };

export type UserInput = { processor_input_id: string; secondary_processor_input_id?: string; value: string };

export type ServerCapabilities = {
  transcription: { engine: 'local' | 'openai' | 'none'; languages: string[]; note?: string };
  generation: { engine: 'openai' | 'local' | 'composer'; model?: string; usesAi: boolean };
  retention: { minutes: number };
  integration: { origins: string[] };
};

const sessions = 'v1/consultation_sessions';

export const consultationsApi = {
  types: () => call(() => api().get('v1/consultation_types').json<{ consultation_types: ConsultationTypeView[] }>()),
  type: (id: string) => call(() => api().get(`v1/consultation_types/${encodeURIComponent(id)}`).json<{ consultation_type: ConsultationTypeView }>()),
  start: (consultationTypeId: string, opts: { mobile?: boolean; force?: boolean } = {}) =>
    call(() => api().post(sessions, { json: { consultation_type_id: consultationTypeId, ...opts } }).json<{ consultation_session: SessionDetail }>()),
  get: (id: string) => call(() => api().get(`${sessions}/${id}`).json<{ consultation_session: SessionDetail }>()),
  recent: () => call(() => api().get(`${sessions}/recent`).json<{ consultation_sessions: SessionSummary[] }>()),
  recording: (id: string, platform: string, micsInfo: unknown) =>
    call(() => api().put(`${sessions}/${id}/recording`, { json: { platform, mics_info: micsInfo } }).json<{ consultation_session: SessionDetail }>()),
  pause: (id: string) => call(() => api().put(`${sessions}/${id}/pause`).json<{ consultation_session: SessionDetail }>()),
  resume: (id: string) => call(() => api().put(`${sessions}/${id}/resume`).json<{ consultation_session: SessionDetail }>()),
  finish: (id: string) => call(() => api().put(`${sessions}/${id}/finish`).json<{ consultation_session: SessionDetail }>()),
  saveTranscription: (id: string, transcription: string) =>
    call(() => api().put(`${sessions}/${id}/transcription`, { json: { transcription } }).json<{ transcription: string }>()),
  saveInputs: (id: string, userInputs: UserInput[]) =>
    call(() => api().put(`${sessions}/${id}`, { json: { user_inputs: userInputs } }).json<{ consultation_session: SessionDetail }>()),
  activeStatus: () => call(() => api().get(`${sessions}/active/status`).json<{ active: boolean; id?: string; show_transcription?: boolean }>()),
  capabilities: () => call(() => api().get('start').json<ServerCapabilities>()),
};
