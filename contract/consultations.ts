import { z } from 'zod';
import { CATALOGUES, LANGUAGES } from './constants.js';

/** `archived`: past its retention window, audio deleted, text kept and read-only. */
export const sessionStatus = z.enum(['active', 'finished', 'archived']);
export const recordingState = z.enum(['idle', 'recording', 'paused', 'stopped']);
export const transcriptionStatus = z.enum(['none', 'processing', 'done', 'partial', 'unavailable']);

export const consultationTypeSchema = z.object({
  id: z.string(),
  kind: z.enum(['note_taker', 'dictaphone', 'report']),
  show_transcription: z.boolean(),
  name: z.string(),
  description: z.string(),
  processor_inputs: z.array(z.object({ id: z.string(), name: z.string() })),
  main_document: z.object({ id: z.string(), name: z.string(), description: z.string() }),
  selectable_documents: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
  catalogue: z.enum(CATALOGUES),
  section: z.enum(['public', 'test']),
});

export { PATIENT_LABEL_MAX } from './constants.js';

export const sessionSummarySchema = z.object({
  id: z.uuid(),
  status: sessionStatus,
  consultation_type_id: z.string(),
  show_transcription: z.boolean(),
  mobile: z.boolean(),
  recording_state: recordingState,
  platform: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** Past the retention window with its text kept: it can be read, copied and exported, never changed. */
  read_only: z.boolean(),
  /** When the retention window ended and the audio was (or is being) deleted; null while it is kept. */
  audio_deleted_at: z.string().nullable(),
  /** Whom the consultation was with, in the clinician's words (or the record system's); optional. */
  patient_label: z.string().nullable(),
  /** The language spoken in the consultation; null on one begun before it was kept (the clinician's then). */
  language: z.enum(LANGUAGES).nullable(),
  /** The first words of the notes, in the list of recent consultations only. */
  excerpt: z.string().nullable().optional(),
});

export const audioPartSchema = z.object({
  id: z.uuid(),
  order: z.number().int(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  duration_ms: z.number().int().nullable(),
  transcription_status: z.string(),
  audio_kept: z.boolean(),
  created_at: z.string(),
});

/**
 * Who records the consultation now (null when no device holds a fresh lease): this device, or another one,
 * maybe asked to hand over; `next_order` is the part number a new recorder continues from.
 */
export const recorderSchema = z
  .object({
    this_device: z.boolean(),
    mobile: z.boolean(),
    handover_requested: z.boolean(),
    handover_to_this_device: z.boolean(),
    next_order: z.number().int(),
  })
  .nullable();
export type RecorderView = z.infer<typeof recorderSchema>;

/** The recording device's heartbeat answer: whether it still records, and whether another device asked to. */
export const recorderHeartbeatSchema = z.object({ recording_here: z.boolean(), handover_requested: z.boolean() });
export const recorderCountSchema = z.object({ next_order: z.number().int().min(0).max(100_000) }).strict();

/** The kind of device a stretch of a consultation was recorded on: a teleconsultation records the call too. */
export const RECORDING_DEVICES = ['computer', 'phone', 'teleconsultation'] as const;
export type RecordingDevice = (typeof RECORDING_DEVICES)[number];

/**
 * While the notes wait for parts the finish named that have not reached the server: which parts (orders, 0-based,
 * in stretches), the device that recorded each stretch (null when it is not known: a client without a device id),
 * and when the document is written without them, as a time and as what is left of the wait when answered (so a
 * device whose clock is off still counts down right). Null when nothing is awaited.
 */
export const awaitedPartsSchema = z
  .object({
    missing: z.array(z.object({ first_order: z.number().int(), last_order: z.number().int(), device: z.enum(RECORDING_DEVICES).nullable() })),
    write_without_at: z.string(),
    write_without_in_ms: z.number().int(),
  })
  .nullable();
export type AwaitedParts = z.infer<typeof awaitedPartsSchema>;

/** How an organization asks for the patient's consent to recording, before the first part is recorded. */
export const CONSENT_RULES = ['off', 'clinician', 'patient'] as const;
export type ConsentRule = (typeof CONSENT_RULES)[number];

/**
 * The patient's consent to recording: the organization's rule when the consultation began, and how and when the
 * consent was given (null until it was).
 */
export const consentSchema = z.object({
  required: z.enum(CONSENT_RULES),
  method: z.enum(['clinician', 'patient']).nullable(),
  given_at: z.string().nullable(),
});
export type ConsentView = z.infer<typeof consentSchema>;

/** The consent as given: by whom (the clinician confirming the patient's word, or the patient on the screen) and when. */
export const consentBody = z
  .object({
    method: z.enum(['clinician', 'patient'], { error: 'invalid_consent_method' }),
    given_at: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export const sessionDetailSchema = sessionSummarySchema.extend({
  mics_info: z.unknown(),
  user_inputs: z.array(z.unknown()),
  transcription: z.string(),
  transcription_edited: z.boolean(),
  transcription_status: transcriptionStatus,
  /** The speech engines that wrote the transcript's parts ('pocketsphinx:clinical', 'openai:whisper-1'…). */
  transcription_engines: z.array(z.string()),
  audios: z.array(audioPartSchema),
  recorded_ms: z.number().int(),
  /** The parts (orders 0..n-1) the client said it recorded when it finished; null when it did not say. */
  expected_parts: z.number().int().nullable(),
  awaited_parts: awaitedPartsSchema,
  recorder: recorderSchema,
  consent: consentSchema,
});

export const sessionEnvelope = z.object({ consultation_session: sessionDetailSchema });

/**
 * What the consultation screen polls every few seconds: the session without its list of parts, and of the
 * transcript only what the screen does not have yet. The screen says how much it has (`transcription_from`
 * characters, whose SHA-256 begins with `transcription_prefix`); when that is still the beginning of the
 * transcript, `transcription.text` is what follows it, otherwise the whole text with `from` 0.
 */
export const progressQuery = z
  .object({
    transcription_from: z.coerce.number().int().min(0).max(10_000_000).optional(),
    transcription_prefix: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .optional(),
  })
  .strict();
export const sessionProgressSchema = sessionSummarySchema.extend({
  user_inputs: z.array(z.unknown()),
  transcription: z.object({ from: z.number().int(), text: z.string() }),
  transcription_edited: z.boolean(),
  transcription_status: transcriptionStatus,
  transcription_engines: z.array(z.string()),
  recorded_ms: z.number().int(),
  /** The parts stored so far, and the order after the last one (a new recorder's next part). */
  parts: z.number().int(),
  next_order: z.number().int(),
  expected_parts: z.number().int().nullable(),
  awaited_parts: awaitedPartsSchema,
  recorder: recorderSchema,
  consent: consentSchema,
});
export const progressEnvelope = z.object({ consultation_progress: sessionProgressSchema });
export type SessionProgress = z.infer<typeof sessionProgressSchema>;
export const sessionsEnvelope = z.object({ consultation_sessions: z.array(sessionSummarySchema) });
export const activeSessionEnvelope = z.object({ consultation_session: sessionSummarySchema.nullable() });
export const activeStatusSchema = z.union([
  z.object({ active: z.literal(false) }),
  z.object({ active: z.literal(true), id: z.uuid(), show_transcription: z.boolean(), recording_state: z.string() }),
]);
/** Optional body of PUT …/finish: how many parts the client recorded, so the main document waits for them. */
export const MAX_PARTS = 100_000;
const partsMessage = `parts must be a whole number from 0 to ${MAX_PARTS}`;
export const finishBodySchema = z
  .object({
    parts: z.number({ error: partsMessage }).int({ error: partsMessage }).min(0, { error: partsMessage }).max(MAX_PARTS, { error: partsMessage }).optional(),
  })
  .strict();
export type FinishBody = z.infer<typeof finishBodySchema>;

export const transcriptionEnvelope = z.object({ transcription: z.string(), transcription_status: transcriptionStatus, transcription_edited: z.boolean() });
export const audioEnvelope = z.object({ audio: audioPartSchema });
export const audiosEnvelope = z.object({ audios: z.array(audioPartSchema) });

export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export type SessionDetail = z.infer<typeof sessionDetailSchema>;
export type ConsultationTypeView = z.infer<typeof consultationTypeSchema>;

/** Spec §3 "Feedback": the form a clinician fills after a consultation. */
/** The spec's two, and the ends beside them: the median edit time is the product's own quality figure. */
export const EDITING_TIMES = ['under_1_min', '1_5_min', '5_10_min', 'over_10_min'] as const;
export const consultationFeedbackSchema = z
  .object({
    doctor_satisfaction: z.number().int().min(0).max(10),
    patient_satisfaction: z.number().int().min(0).max(10).nullable().optional(),
    notes_quality: z.number().int().min(1).max(5).nullable().optional(),
    editing_time: z.enum(EDITING_TIMES).nullable().optional(),
    comment: z.string().trim().max(2_000).nullable().optional(),
    share_anonymously: z.boolean().default(false),
  })
  .strict();
export type ConsultationFeedback = z.infer<typeof consultationFeedbackSchema>;
