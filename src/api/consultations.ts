import { api } from './instance';
import { call } from './client';

import type { ConsultationTypeView, RecorderView, SessionDetail, SessionProgress, SessionSummary } from '../../contract/consultations';
import type { Language } from '../../contract/constants';

export type { ConsultationTypeView, RecorderView, SessionDetail, SessionProgress, SessionSummary };

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
  type: (id: string) =>
    call(() =>
      api()
        .get(`v1/consultation_types/${encodeURIComponent(id)}`)
        .json<{ consultation_type: ConsultationTypeView }>(),
    ),
  start: (consultationTypeId: string, opts: { mobile?: boolean; force?: boolean; id?: string } = {}) =>
    call(() =>
      api()
        .post(sessions, { json: { consultation_type_id: consultationTypeId, ...opts } })
        .json<{ consultation_session: SessionDetail }>(),
    ),
  get: (id: string) => call(() => api().get(`${sessions}/${id}`).json<{ consultation_session: SessionDetail }>()),
  /** The poll: the session without its parts, and the transcript after the `from` characters this device holds. */
  progress: (id: string, known: { from: number; prefix: string } | undefined) =>
    call(() =>
      api()
        .get(`${sessions}/${id}/progress`, { searchParams: known ? { transcription_from: known.from, transcription_prefix: known.prefix } : {} })
        .json<{ consultation_progress: SessionProgress }>(),
    ),
  recent: () => call(() => api().get(`${sessions}/recent`).json<{ consultation_sessions: SessionSummary[] }>()),
  /** Start or go on recording here: `waiting` (202) when another device records and was asked to hand over. */
  recording: (id: string, platform: string, opts: { micsInfo?: unknown; mobile?: boolean; takeOver?: boolean } = {}) =>
    call(async () => {
      const res = await api().put(`${sessions}/${id}/recording`, {
        json: { platform, mics_info: opts.micsInfo, mobile: opts.mobile ?? false, take_over: opts.takeOver ?? false },
      });
      return { waiting: res.status === 202, ...(await res.json<{ consultation_session: SessionDetail }>()) };
    }),
  recorderHeartbeat: (id: string, nextOrder: number) =>
    call(() =>
      api()
        .put(`${sessions}/${id}/recording/heartbeat`, { json: { next_order: nextOrder } })
        .json<{ recording_here: boolean; handover_requested: boolean }>(),
    ),
  releaseRecording: (id: string, nextOrder: number) =>
    call(() =>
      api()
        .put(`${sessions}/${id}/recording/release`, { json: { next_order: nextOrder } })
        .json<{ consultation_session: SessionDetail }>(),
    ),
  pause: (id: string) => call(() => api().put(`${sessions}/${id}/pause`).json<{ consultation_session: SessionDetail }>()),
  resume: (id: string) => call(() => api().put(`${sessions}/${id}/resume`).json<{ consultation_session: SessionDetail }>()),
  giveConsent: (id: string, consent: { method: 'clinician' | 'patient'; given_at: string }) =>
    call(() => api().put(`${sessions}/${id}/consent`, { json: consent }).json<{ consultation_session: SessionDetail }>()),
  finish: (id: string) => call(() => api().put(`${sessions}/${id}/finish`).json<{ consultation_session: SessionDetail }>()),
  saveTranscription: (id: string, transcription: string) =>
    call(() => api().put(`${sessions}/${id}/transcription`, { json: { transcription } }).json<{ transcription: string }>()),
  /** The notes data the transcript already says, each with the sentence it was heard in (nothing is saved). */
  suggestedInputs: (id: string) =>
    call(() => api().get(`${sessions}/${id}/suggested_inputs`).json<{ suggested_inputs: { processor_input_id: string; value: string; source: string }[] }>()),
  saveInputs: (id: string, userInputs: UserInput[]) =>
    call(() =>
      api()
        .put(`${sessions}/${id}`, { json: { user_inputs: userInputs } })
        .json<{ consultation_session: SessionDetail }>(),
    ),
  /** Whom the consultation was with, in the clinician's words; blank clears it. */
  setLanguage: (id: string, language: Language) =>
    call(() => api().put(`${sessions}/${id}`, { json: { language } }).json<{ consultation_session: SessionDetail }>()),
  setPatientLabel: (id: string, label: string) =>
    call(() =>
      api()
        .put(`${sessions}/${id}`, { json: { patient_label: label } })
        .json<{ consultation_session: SessionDetail }>(),
    ),
  activeStatus: () => call(() => api().get(`${sessions}/active/status`).json<{ active: boolean; id?: string; show_transcription?: boolean }>()),
  /** The finished documents as a FHIR R4 document Bundle (application/fhir+json). */
  fhir: (id: string, document?: string) =>
    call(() =>
      api()
        .get(`${sessions}/${id}/fhir`, { searchParams: document ? { document } : {} })
        .blob(),
    ),
  /** "Send to record": what the organization's record system answered for each resource it was sent. */
  pushToRecord: (id: string, document?: string) =>
    call(() =>
      api()
        .post(`${sessions}/${id}/fhir_push`, { searchParams: document ? { document } : {} })
        .json<{
          fhir_push: {
            status: 'sent' | 'partial';
            base_url: string;
            resources: { resource_type: string; status: number; location: string | null; error?: string }[];
            error?: string;
          };
        }>(),
    ),
  /** The server's settings the screens need (engines, retention, integration origins), asked once for screens asking together. */
  capabilities: () => keptCapabilities(() => call(() => api().get('start').json<ServerCapabilities>())),
};

// The frame and the consultation screen ask at the same moment: one request. Kept only a few seconds, since an
// administrator may switch the AI engine while the app is open.
const CAPABILITIES_KEPT_MS = 5_000;
let capabilitiesAsked: { at: number; answer: Promise<ServerCapabilities> } | undefined;
function keptCapabilities(ask: () => Promise<ServerCapabilities>): Promise<ServerCapabilities> {
  if (capabilitiesAsked && Date.now() - capabilitiesAsked.at < CAPABILITIES_KEPT_MS) return capabilitiesAsked.answer;
  const asked = { at: Date.now(), answer: ask() };
  capabilitiesAsked = asked;
  // A failure is not kept: the next screen asks again.
  asked.answer.catch(() => {
    if (capabilitiesAsked === asked) capabilitiesAsked = undefined;
  });
  return asked.answer;
}
