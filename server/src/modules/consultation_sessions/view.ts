import { createHash } from 'node:crypto';
import type {
  AwaitedParts,
  ConsentRule,
  ConsentView,
  RecorderView,
  SessionDetail,
  SessionProgress,
  SessionSummary,
} from '../../../../contract/consultations.js';
import { assembleTranscription, partWaitOver, transcriptEngines, type PartExpectation, type TranscribedPart } from './transcription.js';
import type { ChunkRow, SessionRow } from './repository.js';
import { audioDeletedAt, isPastRetention } from './retention-state.js';

/** A consultation past its window reads as `archived` even before the sweep has folded its text into the row. */
export function sessionSummary(s: SessionRow): SessionSummary {
  const past = isPastRetention(s);
  const deleted = audioDeletedAt(s);
  return {
    id: s.id,
    status: past ? 'archived' : (s.status as SessionSummary['status']),
    consultation_type_id: s.consultationTypeId,
    show_transcription: s.showTranscription,
    mobile: s.mobile,
    recording_state: s.recordingState as SessionSummary['recording_state'],
    platform: s.platform,
    created_at: s.createdAt.toISOString(),
    finished_at: s.finishedAt?.toISOString() ?? null,
    expires_at: s.expiresAt?.toISOString() ?? null,
    read_only: past,
    audio_deleted_at: deleted?.toISOString() ?? null,
    patient_label: s.patientLabel,
    language: s.language ?? null,
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

type TimedPart = TranscribedPart & { durationMs: number | null; transcribedBy?: string | null };

/** How a transcript is assembled and named; the polls pass versions that remember the answers (parts-cache.ts). */
export type TranscriptWork = {
  assemble: (parts: TimedPart[], expectation: PartExpectation) => ReturnType<typeof assembleTranscription>;
  prefix: (text: string) => string;
};

/**
 * The transcript as both views show it, and the recorded length. Archiving folds the transcript into the override
 * and drops the parts: it is the whole text, not an edit. The transcript stays `processing` while parts the finish
 * named are still awaited (within `partWaitMs` of the finish).
 */
function transcriptOf(s: SessionRow, parts: TimedPart[], partWaitMs: number, assemble: TranscriptWork['assemble'] = assembleTranscription) {
  // The marks of missing words in the consultation's language; consultations begun before it was kept stay as they were.
  const assembled = assemble(parts, { expectedParts: s.expectedParts, waitOver: partWaitOver(s, partWaitMs), language: s.language ?? undefined });
  const archived = s.status === 'archived';
  const text = s.transcriptionOverride ?? assembled.text;
  return {
    text,
    edited: !archived && s.transcriptionOverride !== null,
    status: archived ? (text ? 'done' : 'none') : assembled.status,
    recordedMs: parts.reduce((sum, c) => sum + (c.durationMs ?? 0), 0),
    engines: transcriptEngines(parts),
  } as const;
}

/**
 * The parts the notes still wait for: named by the finish, not stored, while the wait lasts (a clinician's own
 * transcript is not waited on). Consecutive missing parts from one device make one stretch.
 */
export function awaitedParts(
  s: Pick<SessionRow, 'status' | 'expectedParts' | 'finishedAt' | 'transcriptionOverride' | 'recorderSpans'>,
  parts: { order: number }[],
  partWaitMs: number,
  now = Date.now(),
): AwaitedParts {
  if (s.status !== 'finished' || s.expectedParts === null || s.finishedAt === null || s.transcriptionOverride !== null) return null;
  const deadline = s.finishedAt.getTime() + partWaitMs;
  if (deadline <= now) return null;
  const stored = new Set(parts.map((p) => p.order));
  const spans = [...s.recorderSpans].sort((a, b) => a.from - b.from);
  const deviceOf = (order: number) => spans.findLast((span) => span.from <= order)?.device ?? null;
  const missing: NonNullable<AwaitedParts>['missing'] = [];
  for (let order = 0; order < s.expectedParts; order++) {
    if (stored.has(order)) continue;
    const device = deviceOf(order);
    const last = missing.at(-1);
    if (last && last.last_order === order - 1 && last.device === device) last.last_order = order;
    else missing.push({ first_order: order, last_order: order, device });
  }
  if (!missing.length) return null;
  return { missing, write_without_at: new Date(deadline).toISOString(), write_without_in_ms: deadline - now };
}

export function consentView(s: SessionRow): ConsentView {
  return {
    required: s.consentRequired as ConsentRule,
    method: (s.consentMethod as ConsentView['method']) ?? null,
    given_at: s.consentAt?.toISOString() ?? null,
  };
}

/** The whole session: recording details, inputs, parts and the transcript as far as it has grown. */
export function sessionDetail(s: SessionRow, chunks: ChunkRow[], partWaitMs: number, recorder: RecorderView = null): SessionDetail {
  const past = isPastRetention(s);
  const transcript = transcriptOf(s, chunks, partWaitMs);
  return {
    ...sessionSummary(s),
    mics_info: s.micsInfo ?? null,
    user_inputs: s.userInputs,
    transcription: transcript.text,
    transcription_edited: transcript.edited,
    transcription_status: transcript.status,
    transcription_engines: transcript.engines,
    audios: chunks.map((c) => (past ? { ...chunkView(c), audio_kept: false } : chunkView(c))),
    recorded_ms: transcript.recordedMs,
    expected_parts: s.expectedParts,
    awaited_parts: awaitedParts(s, chunks, partWaitMs),
    recorder,
    consent: consentView(s),
  };
}

/** The first 16 hex digits of the SHA-256 of a text's UTF-8 bytes: how the screen names the transcript it holds. */
export const transcriptPrefix = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

/** Assembling and naming the transcript afresh each time: what every caller without remembered answers uses. */
export const PLAIN_TRANSCRIPT_WORK: TranscriptWork = { assemble: assembleTranscription, prefix: transcriptPrefix };

/**
 * The session as the consultation screen polls it (contract: sessionProgressSchema): no list of parts, and of the
 * transcript only what follows what the screen already holds, when that is still how the transcript begins.
 */
export function sessionProgress(
  s: SessionRow,
  parts: TimedPart[],
  partWaitMs: number,
  recorder: RecorderView,
  known: { from?: number; prefix?: string },
  work: TranscriptWork = PLAIN_TRANSCRIPT_WORK,
): SessionProgress {
  const transcript = transcriptOf(s, parts, partWaitMs, work.assemble);
  const { text } = transcript;
  // Most polls hold the whole text already: its name is then the one remembered for it.
  const held = (from: number) => (from === text.length ? work.prefix(text) : transcriptPrefix(text.slice(0, from)));
  const from = known.from !== undefined && known.prefix !== undefined && known.from <= text.length && held(known.from) === known.prefix ? known.from : 0;
  return {
    ...sessionSummary(s),
    user_inputs: s.userInputs,
    transcription: { from, text: text.slice(from) },
    transcription_edited: transcript.edited,
    transcription_status: transcript.status,
    transcription_engines: transcript.engines,
    recorded_ms: transcript.recordedMs,
    parts: parts.length,
    next_order: parts.length ? parts.at(-1)!.order + 1 : 0,
    expected_parts: s.expectedParts,
    awaited_parts: awaitedParts(s, parts, partWaitMs),
    recorder,
    consent: consentView(s),
  };
}
