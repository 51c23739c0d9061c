import type { EDITING_TIMES } from '../../contract/consultations';
import { api } from './instance';
import { call } from './client';

/** Where each sentence of a version comes from, and the terms of a model's text found nowhere in the sources. */
export type EvidenceSpan = {
  start: number;
  end: number;
  quote: string;
  /** The recorded part it was said in and about when within it; present only while that audio is kept. */
  audio?: { id: string; offset_ms: number };
};
/** Something said that carries a clinical fact the note does not state, and the section it belongs in. */
export type Omission = { text: string; section: 'subjective' | 'objective' | 'assessment' | 'plan'; missing: string[]; start: number; end: number };
export type DocumentEvidence = {
  sentences: { text: string; spans: EvidenceSpan[]; source: 'transcript' | 'inputs' | 'none' }[];
  /** Terms no source says, written by a model, that the clinician has not confirmed yet. */
  flagged: string[];
  checked?: string[];
  /** Consultation notes only; absent for versions written before it was computed. */
  omitted?: Omission[];
};

export type GeneratedDocument = {
  id: string;
  key: string;
  version: number;
  total_versions: number;
  status: 'generating' | 'done' | 'failed';
  text: string;
  engine: string;
  uses_ai: boolean;
  change_kind: 'text' | 'markdown' | null;
  change_text: string | null;
  created_at: string;
  /** The AI model that wrote this version; null when none did. */
  model?: string | null;
  /** When the clinician signed this version; null while it is a draft. */
  signed_at?: string | null;
  signed_by?: string | null;
  /** Why a failed version was not written (an error code of contract/errors.ts); null otherwise. */
  error_code?: string | null;
  /** Computed when the version was written; absent for versions written before it was. */
  evidence?: DocumentEvidence | null;
};

const path = (sessionId: string, doc: string) => `v1/consultation_sessions/${sessionId}/generated_documents/${encodeURIComponent(doc)}`;

export const documentsApi = {
  /** One recorded part's audio (the owner's token; 410 once it is no longer kept). */
  audioPart: (sessionId: string, audioId: string) => call(() => api().get(`v1/consultation_sessions/${sessionId}/audios/${audioId}`).blob()),
  get: (sessionId: string, doc: string, version?: number) =>
    call(() =>
      api()
        .get(path(sessionId, doc), { searchParams: version ? { version } : {} })
        .json<{ generated_document: GeneratedDocument }>(),
    ),
  start: (sessionId: string, doc: string) => call(() => api().post(path(sessionId, doc)).json<{ generated_document: GeneratedDocument }>()),
  change: (sessionId: string, doc: string, change: { text: string } | { markdown: string } | { audio: Blob }) => {
    const form = new FormData();
    if ('audio' in change) form.append('audio', change.audio, 'voice-command.webm');
    else form.append('requested_changes', JSON.stringify(change));
    return call(() =>
      api()
        .post(`${path(sessionId, doc)}/regenerate`, { body: form })
        .json<{ generated_document: GeneratedDocument }>(),
    );
  },
  /** Signs the version the clinician read (409 version_not_latest when a newer one exists). */
  sign: (sessionId: string, doc: string, version: number) =>
    call(() =>
      api()
        .post(`${path(sessionId, doc)}/sign`, { json: { version } })
        .json<{ generated_document: GeneratedDocument }>(),
    ),
  /** "I have checked them": the flagged terms of a version the clinician confirmed. */
  confirmChecked: (sessionId: string, doc: string, version: number, terms: string[]) =>
    call(() =>
      api()
        .post(`${path(sessionId, doc)}/checked`, { json: { version, terms } })
        .json<{ generated_document: GeneratedDocument }>(),
    ),
  /** A spoken command as text, for the clinician to read (and correct) before it changes anything. */
  transcribeCommand: (audio: Blob) => {
    const form = new FormData();
    form.append('audio', audio, 'voice-command.webm');
    return call(() => api().post('audio-to-text', { body: form }).json<{ text: string }>());
  },
};

export type ConsultationFeedbackInput = {
  doctor_satisfaction: number;
  patient_satisfaction?: number | null;
  notes_quality?: number | null;
  editing_time?: (typeof EDITING_TIMES)[number] | null;
  comment?: string | null;
  share_anonymously: boolean;
};

export const feedbackApi = {
  send: (sessionId: string, feedback: ConsultationFeedbackInput) =>
    call(() => api().post(`v1/consultation_sessions/${sessionId}/feedback`, { json: { feedback } }).json<{ feedback: ConsultationFeedbackInput }>()),
  /** The clinician's earlier rating of this consultation; 404 when there is none. */
  get: (sessionId: string) =>
    call(() => api().get(`v1/consultation_sessions/${sessionId}/feedback`).json<{ feedback: ConsultationFeedbackInput & { created_at: string } }>()),
};
