import { sql } from 'drizzle-orm';
import type { DocumentEvidence } from '../../../contract/document-evidence.js';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ChannelLayout, SpeakerTurn } from '../../../contract/speakers.js';
import type { Language } from '../../../contract/constants.js';
import type { RecordingDevice } from '../../../contract/consultations.js';

/** From which part on a kind of device recorded a consultation (consultation_sessions.recorder_spans). */
export type RecorderSpan = { from: number; device: RecordingDevice };

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  /**
   * The patient's consent to recording, asked before a consultation's first part: 'off', 'clinician' (the clinician
   * confirms the patient's verbal consent) or 'patient' (the patient confirms on the screen).
   */
  recordingConsent: text('recording_consent').notNull().default('off'),
  createdAt: createdAt(),
});

export const medicalSpecialities = pgTable('medical_specialities', {
  id: text('id').primaryKey(),
  /** Display names by language: { pt, en, de, es }. */
  names: jsonb('names').$type<Record<string, string>>().notNull(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    /** Stored lower-cased; the unique index is what makes signup race-free. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    language: text('language').notNull().default('pt'),
    phoneNumber: text('phone_number'),
    medicalSpecialityId: text('medical_speciality_id').references(() => medicalSpecialities.id, {
      onDelete: 'set null',
    }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    organizationRole: text('organization_role'),
    optInNewsletter: boolean('opt_in_newsletter').notNull().default(false),
    optInProductContact: boolean('opt_in_product_contact').notNull().default(false),
    saveAudios: boolean('save_audios').notNull().default(true),
    /** Off by default: the spec keeps a consultation's data about an hour; keeping text longer is the clinician's choice. */
    saveTextData: boolean('save_text_data').notNull().default(false),
    v2Home: boolean('v2_home').notNull().default(false),
    consultationMode: text('consultation_mode').notNull().default('normal'),
    forcePasswordChange: boolean('force_password_change').notNull().default(false),
    /** Runs this server (AI engines): granted only by `npm run admin -- grant-server-admin`, never through the API. */
    serverAdmin: boolean('server_admin').notNull().default(false),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_organization_idx').on(t.organizationId)],
);

/** One row per issued JWT (its jti): logout and password changes revoke here, so a stolen token dies server-side. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/** Single-use links (e-mail confirmation, password reset, phone pairing). Only the SHA-256 of a token is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_tokens_user_idx').on(t.userId)],
);

/**
 * Where an account has signed in with its password: a random device id the web app keeps, and the client
 * address. Only an HMAC (keyed by the server secret and salted by the user id) is kept, so the table names no
 * address. The login back-off lets these sources through while unknown ones wait (auth/login-limiter.ts).
 */
export const loginKnownSources = pgTable(
  'login_known_sources',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceHash: text('source_hash').notNull(),
    /** device | address */
    kind: text('kind').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sourceHash] })],
);

/**
 * Failed sign-ins per account and trust level (unknown sources, known addresses), keyed by an HMAC of the
 * e-mail whether or not an account exists, so a pause never tells who has an account.
 */
export const loginBackoff = pgTable(
  'login_backoff',
  {
    accountKey: text('account_key').notNull(),
    /** unknown | known_address */
    sourceClass: text('source_class').notNull(),
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.accountKey, t.sourceClass] }), index('login_backoff_last_failure_idx').on(t.lastFailureAt)],
);

/** Signed sign-in tokens from other systems already spent: the SHA-256 of their `jti`, kept until they expire. */
export const usedIntegrationTokens = pgTable(
  'used_integration_tokens',
  {
    jtiHash: text('jti_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_integration_tokens_expires_idx').on(t.expiresAt)],
);

export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    /** SHA-256 of the token in the invitation link; resending issues a new token. */
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('pending'),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('organization_invitations_token_unique').on(t.tokenHash)],
);

/**
 * A consultation being recorded (status active) or done (finished, kept until expires_at).
 * One active session per user: the partial unique index makes it so even under concurrent starts.
 */
export const consultationSessions = pgTable(
  'consultation_sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    consultationTypeId: text('consultation_type_id').notNull(),
    /**
     * The organization the clinician worked for when the consultation began: its record system is where the
     * documents go, and it is their custodian, even if the clinician moves to another organization later.
     */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    /**
     * The patient and encounter of the record system that launched this consultation (SMART App Launch), as ids
     * on that organization's FHIR server: the documents sent there name them.
     */
    fhirPatientId: text('fhir_patient_id'),
    fhirEncounterId: text('fhir_encounter_id'),
    status: text('status').notNull().default('active'),
    /** The clinician's own words for whom this consultation was with (or the record system's), shown in lists. */
    patientLabel: text('patient_label'),
    /**
     * The language spoken in the consultation (the clinician's setting when it began, changeable per consultation):
     * the speech engine is asked for it, and one that cannot transcribe it is not asked at all. Null on consultations
     * begun before the column: their clinician's language.
     */
    language: text('language').$type<Language>(),
    recordingState: text('recording_state').notNull().default('idle'),
    mobile: boolean('mobile').notNull().default(false),
    showTranscription: boolean('show_transcription').notNull().default(false),
    platform: text('platform'),
    micsInfo: jsonb('mics_info').$type<unknown>(),
    userInputs: jsonb('user_inputs').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** Set when the clinician edits the transcript; the assembled chunk transcripts are then not shown. */
    transcriptionOverride: text('transcription_override'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * How many parts (orders 0..n-1) the client said it recorded when it finished, null when it did not say. The
     * main document waits for them (within PART_WAIT_SECONDS); a repeated finish may raise it, never lower it.
     */
    expectedParts: integer('expected_parts'),
    /**
     * The one device recording this consultation (its random browser id) while its lease is fresh: renewed by its
     * heartbeats and uploads; another device records only after a handover (see recording-lease.ts).
     */
    recorderDeviceId: text('recorder_device_id'),
    recorderMobile: boolean('recorder_mobile').notNull().default(false),
    recorderSeenAt: timestamp('recorder_seen_at', { withTimezone: true }),
    /** The part number the next recorder continues from (the last recorder's count, reported when it let go). */
    recorderNextOrder: integer('recorder_next_order').notNull().default(0),
    /**
     * Which kind of device recorded which stretch of parts, in order: each entry from the part it began at, until
     * the next entry's. Told when a device starts recording; what the waiting screen names as the device a missing
     * part is expected from.
     */
    /** The organization's consent rule when the consultation began (organizations.recording_consent). */
    consentRequired: text('consent_required').notNull().default('off'),
    /** How the patient's consent to recording was given ('clinician' or 'patient'), when, and who recorded it. */
    consentMethod: text('consent_method'),
    consentAt: timestamp('consent_at', { withTimezone: true }),
    consentBy: uuid('consent_by').references(() => users.id, { onDelete: 'set null' }),
    recorderSpans: jsonb('recorder_spans').$type<RecorderSpan[]>().notNull().default(sql`'[]'::jsonb`),
    /** A device that asked to record here instead and waits for the current recorder to let go. */
    handoverDeviceId: text('handover_device_id'),
    handoverMobile: boolean('handover_mobile').notNull().default(false),
  },
  (t) => [
    index('consultation_sessions_user_idx').on(t.userId, t.status),
    uniqueIndex('consultation_sessions_one_active').on(t.userId).where(sql`status = 'active'`),
    // An organization's consultations (its credits, moves and reports) without reading everyone's.
    index('consultation_sessions_organization_idx').on(t.organizationId),
  ],
);

/**
 * One recorded part of a session, stored in the blob store. (session_id, order) is unique, which makes
 * uploads idempotent. Each part is a standalone audio file (the recorder restarts at a quiet moment), so it
 * can be transcribed on its own; transcription_status is its job's state.
 */
export const audioChunksRevision = pgSequence('audio_chunks_revision');

export const audioChunks = pgTable(
  'audio_chunks',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => consultationSessions.id, { onDelete: 'cascade' }),
    order: integer('order').notNull(),
    blobKey: text('blob_key').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** SHA-256 of the uploaded bytes: a repeat upload of this order must carry the same recording (else 409). */
    contentSha256: text('content_sha256'),
    durationMs: integer('duration_ms'),
    /** `clinician_patient`: a teleconsultation's part, the clinician's microphone left and the call right. */
    channelLayout: text('channel_layout').$type<ChannelLayout>().notNull().default('mono'),
    transcript: text('transcript'),
    /** Who said what, when the part's speakers are known (the transcript holds the same, labelled). */
    speakerTurns: jsonb('speaker_turns').$type<SpeakerTurn[]>(),
    /**
     * The speech engine that wrote the transcript (ai/transcriber.ts, TranscriberInfo.id: 'pocketsphinx:clinical',
     * 'openai:whisper-1'…): each transcript says which engine wrote it, and a demo-quality one says so.
     */
    transcribedBy: text('transcribed_by'),
    transcriptionStatus: text('transcription_status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** Set when the audio itself was removed (the user keeps no audio); the row and its transcript remain. */
    audioDeletedAt: timestamp('audio_deleted_at', { withTimezone: true }),
    /**
     * Drawn from one sequence when the part is stored and, by a trigger (migration 0033), whenever what the transcript
     * is made of changes (transcript, speakers, status, length): a consultation's parts are unchanged while their
     * count and highest revision are. Null on parts stored before the column, until they change.
     */
    revision: bigint('revision', { mode: 'number' }).default(sql`nextval('audio_chunks_revision')`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('audio_chunks_session_order').on(t.sessionId, t.order),
    index('audio_chunks_pending_idx').on(t.transcriptionStatus, t.nextAttemptAt),
    // The transcription claim takes the oldest unfinished part: read in that order from the backlog alone, never
    // by sorting every part ever stored.
    index('audio_chunks_unfinished_idx').on(t.createdAt, t.order).where(sql`transcription_status in ('pending', 'processing')`),
  ],
);

/**
 * Every version of every generated document of a session: version 1 is the first generation, each change
 * request or manual edit adds the next one. Deleted with the session.
 */
export const generatedDocuments = pgTable(
  'generated_documents',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => consultationSessions.id, { onDelete: 'cascade' }),
    documentKey: text('document_key').notNull(),
    version: integer('version').notNull(),
    status: text('status').notNull(),
    text: text('text').notNull().default(''),
    engine: text('engine').notNull(),
    changeKind: text('change_kind'),
    changeText: text('change_text'),
    /** The clinician's template it was written with, if any (GET /template/{id}/reports lists them). */
    templateId: uuid('template_id').references(() => processorInputTemplates.id, { onDelete: 'set null' }),
    /** Why a failed version was not written: an error code of contract/errors.ts, ': ', and the failure's kind. */
    error: text('error'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The version the finish of the consultation started: at most one per document (index below), so one debit. */
    finishTriggered: boolean('finish_triggered').notNull().default(false),
    /**
     * While `generating`: the process writing it renews this; once it has passed, any process may take the
     * version over and write it again from the start (modules/generated_documents/takeover.ts).
     */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** How many times another process took it over; also the fencing token a writer checks before it saves. */
    takeovers: integer('takeovers').notNull().default(0),
    /** Where each sentence comes from (transcript spans, the inputs, nowhere) and a model's unsupported terms. */
    evidence: jsonb('evidence').$type<DocumentEvidence>(),
    /** The model that wrote this version, as its engine named it (an AI engine's only; for the record's provenance). */
    model: text('model'),
    /**
     * The clinician's sign-off of this version (POST …/sign): until then it is a draft. A new version is a new,
     * unsigned row, so a change after signing is a draft again.
     */
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signedBy: uuid('signed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('generated_documents_version').on(t.sessionId, t.documentKey, t.version),
    uniqueIndex('generated_documents_one_finish_triggered').on(t.sessionId, t.documentKey).where(sql`finish_triggered`),
    index('generated_documents_generating_lease').on(t.leaseUntil).where(sql`status = 'generating'`),
  ],
);

/**
 * The credits ledger: grants (support), debits (AI generations) and refunds (failed generations). A balance is
 * the sum of an account's rows; the account is the organization, or the user when they have none.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    /** Who used or granted it (a member of the organization, or support). */
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    documentId: uuid('document_id'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('credit_ledger_org_idx').on(t.organizationId), index('credit_ledger_owner_idx').on(t.ownerUserId)],
);

/** The clinician's verdict on one version of a generated document (one per version and user, replaced on resend). */
export const documentFeedback = pgTable(
  'document_feedback',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => generatedDocuments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('document_feedback_one').on(t.documentId, t.userId)],
);

/** Assistant conversations, per user: a thread holds the messages, each question starts a run. */
export const assistantThreads = pgTable(
  'assistant_threads',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assistantKey: text('assistant_key').notNull(),
    threadKey: text('thread_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('assistant_threads_user_key').on(t.userId, t.threadKey)],
);

export const assistantMessages = pgTable(
  'assistant_messages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => assistantThreads.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('assistant_messages_thread_idx').on(t.threadId, t.createdAt)],
);

export const assistantRuns = pgTable('assistant_runs', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  threadId: uuid('thread_id')
    .notNull()
    .references(() => assistantThreads.id, { onDelete: 'cascade' }),
  status: text('status').notNull(),
  error: text('error'),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

/** A clinician's personal templates, per processor input (one input per document kind: `<document>_template`). */
export const processorInputTemplates = pgTable(
  'processor_input_templates',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processorInputId: text('processor_input_id').notNull(),
    name: text('name').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('processor_input_templates_user_idx').on(t.userId, t.processorInputId)],
);

/** A clinician's standing guidance for one selectable document ("always state the ICD-10 code"), one per document. */
export const selectableDocumentGuides = pgTable(
  'selectable_document_guides',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: text('document_id').notNull(),
    content: text('content').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('selectable_document_guides_one').on(t.userId, t.documentId)],
);

/**
 * The feedback form of a consultation. It outlives the consultation's data (session_id is cleared when the
 * retention job deletes it): only ratings and the clinician's comment remain, never patient data.
 */
export const consultationFeedback = pgTable(
  'consultation_feedback',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    sessionId: uuid('session_id').references(() => consultationSessions.id, { onDelete: 'set null' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    doctorSatisfaction: integer('doctor_satisfaction').notNull(),
    patientSatisfaction: integer('patient_satisfaction'),
    notesQuality: integer('notes_quality'),
    editingTime: text('editing_time'),
    comment: text('comment'),
    shareAnonymously: boolean('share_anonymously').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('consultation_feedback_one').on(t.sessionId, t.userId)],
);

/** The assistants (consultation types) a clinician pinned to their quick-access area. */
export const assistantPins = pgTable(
  'assistant_pins',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    consultationTypeId: text('consultation_type_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('assistant_pins_one').on(t.userId, t.consultationTypeId)],
);

/** News shown on every clinician's home in one language, published by support with the admin CLI. */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    language: text('language').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('announcements_language_idx').on(t.language, t.expiresAt)],
);

/**
 * A clinician's request for a custom document template (spec §3): built section by section, with example files,
 * then sent to support, who build it and publish it as a custom assistant.
 */
export const customDocumentRequests = pgTable(
  'custom_document_requests',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    baseDocument: text('base_document'),
    sections: jsonb('sections').$type<{ title: string; description: string; change_request: string }[]>().notNull().default(sql`'[]'::jsonb`),
    otherComments: text('other_comments').notNull().default(''),
    /** draft → submitted (pending: blocks a new request and editing) → approved by support (the admin CLI). */
    status: text('status').notNull().default('draft'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
  },
  (t) => [
    index('custom_document_requests_user_idx').on(t.userId),
    // At most one request waiting for support per clinician, however many sends arrive at once.
    uniqueIndex('custom_document_requests_one_pending').on(t.userId).where(sql`${t.status} = 'submitted'`),
  ],
);

export const customDocumentExamples = pgTable('custom_document_examples', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  requestId: uuid('request_id')
    .notNull()
    .references(() => customDocumentRequests.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  blobKey: text('blob_key').notNull(),
  createdAt: createdAt(),
});

/**
 * Research: a space belongs to its creator and, when they are in an organization, to that organization's members
 * too (a research team screens together). Everything below a space goes with it.
 */
export const researchSpaces = pgTable(
  'research_spaces',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('research_spaces_creator_idx').on(t.createdBy), index('research_spaces_org_idx').on(t.organizationId)],
);

export const clinicalTrials = pgTable(
  'clinical_trials',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => researchSpaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('clinical_trials_space_idx').on(t.spaceId)],
);

export const trialCriteria = pgTable(
  'trial_criteria',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    trialId: uuid('trial_id')
      .notNull()
      .references(() => clinicalTrials.id, { onDelete: 'cascade' }),
    definition: text('definition').notNull(),
    /** critical_inclusion, critical_exclusion, non_critical_inclusion, non_critical_exclusion */
    type: text('type').notNull(),
    needsReview: boolean('needs_review').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('trial_criteria_trial_idx').on(t.trialId)],
);

export const researchPatients = pgTable(
  'research_patients',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => researchSpaces.id, { onDelete: 'cascade' }),
    /** A pseudonymous reference chosen by the researcher (or the first file's name). */
    label: text('label').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('research_patients_space_idx').on(t.spaceId)],
);

export const researchPatientFiles = pgTable(
  'research_patient_files',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => researchPatients.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    pages: integer('pages').notNull(),
    blobKey: text('blob_key').notNull(),
    /** The PDF's text, read once at upload (or from its scanned pages by the OCR job). */
    text: text('text').notNull(),
    /** read (text layer), ocr_pending, ocr_running, ocr_done (from scanned pages), no_text (nothing could be read) */
    textStatus: text('text_status').notNull().default('read'),
    /** While `ocr_running`: until when the worker reading it holds it (renewed as it reads); also its claim's token. */
    ocrLockedUntil: timestamp('ocr_locked_until', { withTimezone: true }),
    /** The uploader's language, which the OCR reads the scanned pages in. */
    language: text('language').notNull().default('pt'),
    createdAt: createdAt(),
  },
  (t) => [index('research_patient_files_patient_idx').on(t.patientId), index('research_patient_files_ocr_idx').on(t.textStatus)],
);

export const trialScreenings = pgTable(
  'trial_screenings',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    trialId: uuid('trial_id')
      .notNull()
      .references(() => clinicalTrials.id, { onDelete: 'cascade' }),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    /** running, completed, failed */
    status: text('status').notNull().default('running'),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    engine: text('engine').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    /** Moved on by every patient screened: a running screening whose heartbeat stopped was interrupted. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  // One screening at a time per trial: two at once would race to write the same results.
  (t) => [index('trial_screenings_trial_idx').on(t.trialId), uniqueIndex('trial_screenings_one_running').on(t.trialId).where(sql`status = 'running'`)],
);

/** `passages`: under an unclear verdict, the record's sentences that best answer the criterion, with the words that matched. */
export type CriterionVerdict = {
  criterion_id: string;
  definition: string;
  type: string;
  needs_review: boolean;
  verdict: 'met' | 'not_met' | 'unclear';
  evidence: string;
  explanation?: string;
  passages?: { text: string; matched: string[] }[];
};

/** The screening's verdict a reviewer saw when deciding: a later screening that differs from it is flagged. */
export type DecidedOn = { pre_evaluation: string; verdicts: Record<string, CriterionVerdict['verdict']> };

export const evaluationResults = pgTable(
  'evaluation_results',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    trialId: uuid('trial_id')
      .notNull()
      .references(() => clinicalTrials.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => researchPatients.id, { onDelete: 'cascade' }),
    screeningId: uuid('screening_id').references(() => trialScreenings.id, { onDelete: 'set null' }),
    /** The screening's class: not_approved, fit, possible. */
    preEvaluation: text('pre_evaluation').notNull(),
    criteriaMet: integer('criteria_met').notNull(),
    criteriaTotal: integer('criteria_total').notNull(),
    criteria: jsonb('criteria').$type<CriterionVerdict[]>().notNull(),
    explanation: text('explanation').notNull().default(''),
    /** How likely this is the trial's patient, 0–100 (relevance.ts); null for results screened before it was kept. */
    relevance: integer('relevance'),
    /**
     * The screening's own status, in_review or requires_review. A screening rewrites it (and the columns above);
     * the reviewer's decision below is theirs, and no screening touches it.
     */
    status: text('status').notNull(),
    engine: text('engine').notNull(),
    /** approved or declined by a reviewer; null until one decides. */
    decision: text('decision'),
    decisionNote: text('decision_note').notNull().default(''),
    /** Who decided (or last wrote the note) and when. A member removed from the organization stays the author. */
    decidedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('reviewed_at', { withTimezone: true }),
    decidedOn: jsonb('decided_on').$type<DecidedOn>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('evaluation_results_trial_patient_unique').on(t.trialId, t.patientId)],
);

/**
 * The audit log of access to patient data (server/src/audit/): who did what to which record, when, from where and
 * with what outcome. Ids only, never patient text. Append-only: triggers refuse UPDATE, DELETE and TRUNCATE, and
 * each row's hash covers its fields and the previous row's hash, keyed by a secret kept outside the database
 * (audit/hash-chain.ts), so an edit or a removal shows. No foreign keys, so deleting an account or a consultation
 * never touches its rows.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorUserId: uuid('actor_user_id'),
    actorOrganizationId: uuid('actor_organization_id'),
    /** user | anonymous | signed_link | admin_cli */
    actorKind: text('actor_kind').notNull(),
    /** read | create | update | delete | export | execute */
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    /** Related ids by name (the consultation of a document, the space of a patient…). */
    extraIds: jsonb('extra_ids').$type<Record<string, string>>().notNull().default({}),
    /** success | failure */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /** 1: plain SHA-256 (events written before the chain had a key); 2: HMAC-SHA-256 under the audit key `hash_key_id`. */
    hashVersion: smallint('hash_version').notNull().default(1),
    /** The id of the audit key of a version-2 hash (derived from the key, reveals nothing of it); null for version 1. */
    hashKeyId: text('hash_key_id'),
  },
  (t) => [
    // One successor per row: the chain cannot fork even if the writers' lock were bypassed.
    uniqueIndex('audit_events_prev_hash_unique').on(t.prevHash),
    index('audit_events_organization_idx').on(t.actorOrganizationId, t.id),
    index('audit_events_resource_idx').on(t.resourceId),
  ],
);

/**
 * The AI engines an administrator of this server set in the app (settings › AI engines), one row per kind. The
 * environment's settings win over these. The API key is sealed with the master key (storage/blob-encryption.ts,
 * its row kind as the associated name) and never leaves the server.
 */
export const aiEngineSettings = pgTable('ai_engine_settings', {
  kind: text('kind').primaryKey().$type<'speech' | 'text'>(),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  /** base64 of the sealed key; null when the endpoint takes none (a local server). */
  apiKeySealed: text('api_key_sealed'),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Request counts of the rate-limited routes, shared by every API process (http/shared-rate-limit.ts). The key is
 * an HMAC of route and client (no addresses stored); a row is reused once its window has passed.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_windows_resets_at_idx').on(t.resetsAt)],
);

/**
 * Where an organization's record system takes FHIR documents, set by its admins. `auth`: `none`, `bearer` (a
 * token the record system issued) or `backend_services` (SMART Backend Services: this server signs a client
 * assertion with its own key for the organization, whose public half the record system reads from our JWKS).
 * Secrets are sealed with the master key, like the AI engines' API keys.
 */
export const organizationFhirEndpoints = pgTable('organization_fhir_endpoints', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  baseUrl: text('base_url').notNull(),
  auth: text('auth').notNull(),
  clientId: text('client_id'),
  scope: text('scope'),
  tokenSealed: text('token_sealed'),
  privateKeySealed: text('private_key_sealed'),
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>(),
  /** The client id the record system gave this app for launches from it (SMART App Launch, public client, PKCE). */
  launchClientId: text('launch_client_id'),
  /** Documents go to the record only once their clinician signed them (a draft is refused, 409 sign_off_required). */
  requireSignOff: boolean('require_sign_off').notNull().default(false),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A launch from a record system under way (SMART App Launch): between the redirect to its authorization server
 * and the return, for ten minutes at most. `state` is kept as its SHA-256; the PKCE verifier is sealed with the
 * master key, as any secret at rest.
 */
export const smartLaunches = pgTable('smart_launches', {
  stateHash: text('state_hash').primaryKey(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  iss: text('iss').notNull(),
  tokenEndpoint: text('token_endpoint').notNull(),
  verifierSealed: text('verifier_sealed').notNull(),
  /** SHA-256 of the nonce in the launching browser's cookie: the return is accepted from that browser only. */
  browserHash: text('browser_hash').notNull(),
  /** The ID token's expected issuer and where its keys are, as the record system's configuration said when the launch began. */
  idTokenIssuer: text('id_token_issuer').notNull(),
  jwksUri: text('jwks_uri').notNull(),
  /** SHA-256 of the nonce sent with the authorization request: the ID token must carry it, so it belongs to this launch. */
  idTokenNonceHash: text('id_token_nonce_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * Who a record system's user is here: its issuer and the user's subject there (the ID token's `sub`, or their
 * fhirUser), linked once to one account. An account that existed before is never matched by e-mail alone.
 */
export const recordSystemIdentities = pgTable(
  'record_system_identities',
  {
    iss: text('iss').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.iss, t.subject] })],
);

/**
 * A launch that named an account which existed before the record system's user was linked to it (or an admin's
 * account, at every launch): kept for ten minutes while the clinician proves the account is theirs with its
 * password (POST /v1/launch_link), then the link is made and the consultation opened. The token is in an HttpOnly cookie of the launching browser and kept
 * here as its SHA-256; a few wrong passwords spend the request.
 */
export const recordSystemLinkRequests = pgTable('record_system_link_requests', {
  tokenHash: text('token_hash').primaryKey(),
  iss: text('iss').notNull(),
  subject: text('subject').notNull(),
  /** The record system's name for its user, shown beside the account so the clinician sees who is being linked. */
  subjectName: text('subject_name'),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  fhirPatientId: text('fhir_patient_id'),
  fhirEncounterId: text('fhir_encounter_id'),
  /** The patient's name as the record system gave it, for the consultation's label. */
  patientLabel: text('patient_label'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
