/**
 * What the audit log records: every API route that reads, changes, exports or deletes patient data, with the
 * action, the kind of record and where its ids come from. The hook (audit-hook.ts) looks each finished request up
 * here by method and route pattern; a route missing from this table is not recorded. The test beside this file
 * reads the app's route table and fails when a route under PATIENT_DATA_PREFIXES is in neither list below.
 *
 * Only ids are kept, and only when they look like ids (UUIDs, known document keys, whole numbers): no body, file
 * name or query string reaches the log.
 */
import type { AuditAction, AuditResourceType } from '../../../contract/audit-events.js';

export type IdKind = 'uuid' | 'document' | 'integer' | 'engine';
export type IdSource =
  /** A path parameter of the route. */
  | { param: string; kind: IdKind }
  /** One query parameter that only ever holds an id (never the query string itself). */
  | { query: string; kind: IdKind }
  /** The id of what a successful request created, read from its JSON answer (e.g. `patient.id`). */
  | { created: string[] }
  /** The signed-in user (closing one's own account). */
  | { actor: true };

export type AuditedRoute = {
  action: AuditAction;
  resource: AuditResourceType;
  /** The record itself; for a recording, transcript or document, the consultation it belongs to. */
  id?: IdSource;
  /** Other ids kept beside it, by name: the audio part, the document key, the space of a patient… */
  related?: Record<string, IdSource>;
  /** Reached without a token, through an address signed for the consultation's owner. */
  signedLink?: true;
};

const uuid = (param: string): IdSource => ({ param, kind: 'uuid' });
const created = (path: string): IdSource => ({ created: path.split('.') });

const consultation = uuid('id');
const sessions = '/v1/consultation_sessions';
const documents = `${sessions}/:id/generated_documents/:doc`;
const document = { document: { param: 'doc', kind: 'document' } } as const satisfies Record<string, IdSource>;
const spaces = '/v1/research_spaces/:spaceId';
const space = { space: uuid('spaceId') };
const trial = { ...space, trial: uuid('trialId') };

export const AUDITED_ROUTES: Record<string, AuditedRoute> = {
  // Consultations: the session, its recording, transcript and feedback
  [`POST ${sessions}`]: { action: 'create', resource: 'consultation_session', id: created('consultation_session.id') },
  [`GET ${sessions}`]: { action: 'read', resource: 'consultation_session' },
  [`GET ${sessions}/recent`]: { action: 'read', resource: 'consultation_session' },
  [`GET ${sessions}/history`]: { action: 'read', resource: 'consultation_session' },
  [`GET ${sessions}/active`]: { action: 'read', resource: 'consultation_session' },
  [`GET ${sessions}/:id`]: { action: 'read', resource: 'consultation_session', id: consultation },
  [`GET ${sessions}/:id/progress`]: { action: 'read', resource: 'consultation_session', id: consultation },
  [`PUT ${sessions}/:id`]: { action: 'update', resource: 'consultation_session', id: consultation },
  [`PUT ${sessions}/:id/finish`]: { action: 'update', resource: 'consultation_session', id: consultation },
  // The patient's consent to recording, kept with the consultation.
  [`PUT ${sessions}/:id/consent`]: { action: 'update', resource: 'consultation_session', id: consultation },
  [`PUT ${sessions}/:id/recording`]: { action: 'update', resource: 'recording', id: consultation },
  [`PUT ${sessions}/:id/recording/release`]: { action: 'update', resource: 'recording', id: consultation },
  [`PUT ${sessions}/:id/pause`]: { action: 'update', resource: 'recording', id: consultation },
  [`PUT ${sessions}/:id/resume`]: { action: 'update', resource: 'recording', id: consultation },
  [`POST ${sessions}/:id/audios`]: { action: 'create', resource: 'recording', id: consultation, related: { audio: created('audio.id') } },
  [`GET ${sessions}/:id/audios`]: { action: 'read', resource: 'recording', id: consultation },
  [`GET ${sessions}/:id/audios/:audioId`]: { action: 'read', resource: 'recording', id: consultation, related: { audio: uuid('audioId') } },
  // A signed address anyone holding it can play for five minutes: handing it out is an export.
  // The documents leave the product for a record system (or a file): an export.
  [`GET ${sessions}/:id/fhir`]: {
    action: 'export',
    resource: 'generated_document',
    id: consultation,
    related: { document: { query: 'document', kind: 'document' } },
  },
  [`POST ${sessions}/:id/fhir_push`]: {
    action: 'export',
    resource: 'generated_document',
    id: consultation,
    related: { document: { query: 'document', kind: 'document' } },
  },
  [`GET ${sessions}/:id/audio_url`]: { action: 'export', resource: 'recording', id: consultation },
  [`GET ${sessions}/:id/recording`]: { action: 'read', resource: 'recording', id: consultation, signedLink: true },
  [`GET ${sessions}/:id/transcription`]: { action: 'read', resource: 'transcript', id: consultation },
  [`PUT ${sessions}/:id/transcription`]: { action: 'update', resource: 'transcript', id: consultation },
  [`GET ${sessions}/:id/suggested_inputs`]: { action: 'read', resource: 'transcript', id: consultation },
  [`POST ${sessions}/:id/feedback`]: { action: 'create', resource: 'consultation_feedback', id: consultation },
  [`GET ${sessions}/:id/feedback`]: { action: 'read', resource: 'consultation_feedback', id: consultation },

  // Generated documents (a new version is an update; the version read is kept when asked for)
  [`POST ${documents}`]: { action: 'create', resource: 'generated_document', id: consultation, related: document },
  [`GET ${documents}`]: {
    action: 'read',
    resource: 'generated_document',
    id: consultation,
    related: { ...document, version: { query: 'version', kind: 'integer' } },
  },
  [`GET ${documents}/stream`]: {
    action: 'read',
    resource: 'generated_document',
    id: consultation,
    related: { ...document, version: { query: 'version', kind: 'integer' } },
  },
  [`POST ${documents}/regenerate`]: { action: 'update', resource: 'generated_document', id: consultation, related: document },
  // A sign-off: which version was signed is kept with it (the version's own id, from the answer).
  [`POST ${documents}/sign`]: {
    action: 'update',
    resource: 'generated_document',
    id: consultation,
    related: { ...document, signed_version: created('generated_document.id') },
  },
  [`POST ${documents}/checked`]: { action: 'update', resource: 'generated_document', id: consultation, related: document },
  [`POST ${documents}/feedback`]: { action: 'create', resource: 'document_feedback', id: consultation, related: document },
  [`GET ${documents}/feedback`]: { action: 'read', resource: 'document_feedback', id: consultation, related: document },

  // Patient data sent for processing without a consultation
  'POST /audio-to-text': { action: 'execute', resource: 'dictation' },
  'POST /audio-to-text-upload': { action: 'execute', resource: 'dictation' },
  'POST /generate': { action: 'execute', resource: 'generation' },
  'POST /assistant': { action: 'execute', resource: 'assistant' },
  'GET /assistant/run': { action: 'read', resource: 'assistant' },

  // What a template produced: excerpts of the documents written with it (a consultation's text). The template's id
  // is kept; the consultations listed are not (the answer names up to 100).
  'GET /template/:id/reports': { action: 'read', resource: 'generated_document', related: { template: uuid('id') } },

  // Example documents given with a custom document request (they may be real patients' documents). A request's
  // answers list its examples' file names, which often name the patient ("Maria Silva 1968-03-14.pdf"), so reading
  // a request or the list is a read of them and changing a request (answered with them) an update; sending it mails
  // them to support, an export. The record is the request (its id), as when it is deleted. Only creating a request,
  // which has no example yet, is left out.
  'GET /v1/custom_document_requests': { action: 'read', resource: 'document_example' },
  'GET /v1/custom_document_requests/:id': { action: 'read', resource: 'document_example', id: uuid('id') },
  'PUT /v1/custom_document_requests/:id': { action: 'update', resource: 'document_example', id: uuid('id') },
  'POST /v1/custom_document_requests/:id/submit': { action: 'export', resource: 'document_example', id: uuid('id') },
  'POST /v1/custom_document_requests/:id/examples': { action: 'create', resource: 'document_example', id: uuid('id') },
  'DELETE /v1/custom_document_requests/:id/examples/:exampleId': {
    action: 'delete',
    resource: 'document_example',
    id: uuid('id'),
    related: { example: uuid('exampleId') },
  },
  'DELETE /v1/custom_document_requests/:id': { action: 'delete', resource: 'document_example', id: uuid('id') },

  // Research: patients' records, screenings and their results
  [`DELETE ${spaces}`]: { action: 'delete', resource: 'research_space', id: uuid('spaceId') },
  [`GET ${spaces}/patients`]: { action: 'read', resource: 'research_patient', related: space },
  [`POST ${spaces}/patients`]: { action: 'create', resource: 'research_patient', id: created('patient.id'), related: space },
  [`DELETE ${spaces}/patients/:patientId`]: { action: 'delete', resource: 'research_patient', id: uuid('patientId'), related: space },
  [`GET ${spaces}/patients/:patientId/files/:fileId`]: {
    action: 'read',
    resource: 'research_patient_file',
    id: uuid('fileId'),
    related: { ...space, patient: uuid('patientId') },
  },
  [`GET ${spaces}/trials/:trialId/screenings`]: { action: 'read', resource: 'screening', related: trial },
  [`GET ${spaces}/trials/:trialId/screenings/:screeningId`]: { action: 'read', resource: 'screening', id: uuid('screeningId'), related: trial },
  [`POST ${spaces}/trials/:trialId/screenings`]: { action: 'execute', resource: 'screening', id: created('screening.id'), related: trial },
  [`GET ${spaces}/results`]: { action: 'read', resource: 'screening_result', related: { ...space, trial: { query: 'trial_id', kind: 'uuid' } } },
  [`GET ${spaces}/results.csv`]: { action: 'export', resource: 'screening_result', related: { ...space, trial: { query: 'trial_id', kind: 'uuid' } } },
  [`PUT ${spaces}/results/:resultId`]: { action: 'update', resource: 'screening_result', id: uuid('resultId'), related: space },
  [`DELETE ${spaces}/results/:resultId`]: { action: 'delete', resource: 'screening_result', id: uuid('resultId'), related: space },
  // Deleting a trial deletes its screenings' results with it (evaluation_results cascade from clinical_trials).
  [`DELETE ${spaces}/trials/:trialId`]: { action: 'delete', resource: 'screening_result', related: trial },

  // Outside the patient-data paths
  'GET /v1/organizations/:organizationId/members/:userId/history': { action: 'read', resource: 'consultation_session', related: { member: uuid('userId') } },
  'DELETE /v1/account': { action: 'delete', resource: 'account', id: { actor: true } },
  'GET /v1/organizations/:organizationId/audit_events': { action: 'read', resource: 'audit_log', id: uuid('organizationId') },
  'GET /v1/organizations/:organizationId/audit_events.ndjson': { action: 'export', resource: 'audit_log', id: uuid('organizationId') },
  // Where patients' words are sent: every change of engine and every test call, by whom (never the key).
  // Where an organization's documents go when sent to the record: who changed it, and when.
  'PUT /v1/organizations/:organizationId/fhir_endpoint': { action: 'update', resource: 'record_system', id: uuid('organizationId') },
  // Whether patients are asked for their consent to recording: a change an organization must be able to trace.
  'PUT /v1/organizations/:organizationId/recording_consent': { action: 'update', resource: 'organization_settings', id: uuid('organizationId') },
  'DELETE /v1/organizations/:organizationId/fhir_endpoint': { action: 'delete', resource: 'record_system', id: uuid('organizationId') },
  'PUT /v1/ai_engines/:kind': { action: 'update', resource: 'ai_engine', id: { param: 'kind', kind: 'engine' } },
  'POST /v1/ai_engines/:kind/reset': { action: 'delete', resource: 'ai_engine', id: { param: 'kind', kind: 'engine' } },
  'POST /v1/ai_engines/:kind/test': { action: 'execute', resource: 'ai_engine', id: { param: 'kind', kind: 'engine' } },
};

/** Paths whose every route must be in AUDITED_ROUTES or in NOT_PATIENT_DATA (checked by the test beside this file). */
export const PATIENT_DATA_PREFIXES = [
  '/v1/consultation_sessions',
  '/v1/research_spaces',
  '/v1/custom_document_requests',
  '/audio-to-text',
  '/generate',
  '/assistant',
  '/template',
];

// A criterion's removal leaves the results alone: each result keeps its own copy of the criteria it was judged on.
const TRIALS = 'trial protocols and their criteria: written by researchers, no patient data (removing a criterion deletes no result)';
const SPACE = "a research space's name and who may see it";
const REQUEST = "a new request: the clinician's description of a document layout, no example file yet";

/** Routes under those paths that touch no patient data, each with the reason. */
export const NOT_PATIENT_DATA: Record<string, string> = {
  // Polled every 5 s by every phone: it tells only whether a consultation is active and its recording state, and
  // recording it would make most of the log noise. The consultation itself is audited when it is opened.
  [`GET ${sessions}/active/status`]: 'whether a consultation is active (hot poll)',
  // Every 5 s from the recording device: a part count in, two booleans out (whether it still records, whether
  // another device asked to); the recording it keeps alive is audited when it starts, moves and ends.
  [`PUT ${sessions}/:id/recording/heartbeat`]: 'the recording device keeping its claim (hot poll, no patient data)',
  'GET /v1/research_spaces': SPACE,
  'POST /v1/research_spaces': SPACE,
  [`GET ${spaces}`]: SPACE,
  [`PUT ${spaces}`]: SPACE,
  [`GET ${spaces}/trials`]: TRIALS,
  [`POST ${spaces}/trials`]: TRIALS,
  [`GET ${spaces}/trials/:trialId`]: TRIALS,
  [`PUT ${spaces}/trials/:trialId`]: TRIALS,
  [`POST ${spaces}/trials/:trialId/criteria`]: TRIALS,
  [`PUT ${spaces}/trials/:trialId/criteria/:criterionId`]: TRIALS,
  [`DELETE ${spaces}/trials/:trialId/criteria/:criterionId`]: TRIALS,
  [`POST ${spaces}/trials/:trialId/criteria/generate`]: TRIALS,
  'POST /v1/custom_document_requests': REQUEST,
  'GET /assistants': 'the catalogue of assistants',
};

/** The table entry of a finished request (HEAD is a GET without its body). */
export function auditedRoute(method: string, url: string | undefined): AuditedRoute | undefined {
  if (!url) return undefined;
  return AUDITED_ROUTES[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}
