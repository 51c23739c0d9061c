import type { SessionDetail, SessionSummary } from '../../../../contract/consultations.js';
import { assembleTranscription, partWaitOver } from './transcription.js';
import type { ChunkRow, SessionRow } from './repository.js';

export function sessionSummary(s: SessionRow): SessionSummary {
  return {
    id: s.id,
    status: s.status as SessionSummary['status'],
    consultation_type_id: s.consultationTypeId,
    show_transcription: s.showTranscription,
    mobile: s.mobile,
    recording_state: s.recordingState as SessionSummary['recording_state'],
    platform: s.platform,
    created_at: s.createdAt.toISOString(),
    finished_at: s.finishedAt?.toISOString() ?? null,
    expires_at: s.expiresAt?.toISOString() ?? null,
  };
}

export function chunkView(c: ChunkRow) {
  return {
    id: c.id,
    order: c.order,
    mime_type: c.mimeType,
    size_bytes: c.sizeBytes,
    duration_ms: c.durationMs,
    transcription_status: c.transcriptionStatus,
    audio_kept: c.audioDeletedAt === null,
    created_at: c.createdAt.toISOString(),
  };
}

/**
 * The whole session: recording details, inputs, parts and the transcript as far as it has grown. The transcript
 * stays `processing` while parts the finish named are still awaited (within `partWaitMs` of the finish).
 */
export function sessionDetail(s: SessionRow, chunks: ChunkRow[], partWaitMs: number): SessionDetail {
  const assembled = assembleTranscription(chunks, { expectedParts: s.expectedParts, waitOver: partWaitOver(s, partWaitMs) });
  return {
    ...sessionSummary(s),
    mics_info: s.micsInfo ?? null,
    user_inputs: s.userInputs,
    transcription: s.transcriptionOverride ?? assembled.text,
    transcription_edited: s.transcriptionOverride !== null,
    transcription_status: assembled.status,
    audios: chunks.map(chunkView),
    recorded_ms: chunks.reduce((sum, c) => sum + (c.durationMs ?? 0), 0),
    expected_parts: s.expectedParts,
  };
}
