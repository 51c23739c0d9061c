/**
 * What the research calls answer, as the views in service.ts make it: the serializer sends exactly these fields, so
 * each view's fields are all listed here.
 */
import { z } from 'zod';
import { CRITERION_TYPES } from './criteria.js';

export const spaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  shared_with_organization: z.boolean(),
  can_delete: z.boolean().describe("Whether the caller may delete it: its creator, or an administrator of the space's organization"),
  created_at: z.iso.datetime(),
});

export const criterionSchema = z.object({ id: z.uuid(), definition: z.string(), type: z.enum(CRITERION_TYPES), needs_review: z.boolean() });

export const trialSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  criteria: z.array(criterionSchema),
});

export const patientSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  created_at: z.iso.datetime(),
  files: z.array(
    z.object({
      id: z.uuid(),
      file_name: z.string(),
      size_bytes: z.number().int(),
      pages: z.number().int(),
      text_status: z
        .enum(['read', 'ocr_pending', 'ocr_running', 'ocr_done', 'no_text'])
        .describe("read: the PDF's own text; ocr_*: scanned pages, read in the background; no_text: nothing legible"),
    }),
  ),
});

export const screeningSchema = z.object({
  id: z.uuid(),
  trial_id: z.uuid(),
  status: z.enum(['running', 'completed', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  engine: z.string(),
  error: z.string().nullable(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
});

const preEvaluation = z.enum(['not_approved', 'fit', 'possible']);
const resultStatus = z.enum(['requires_review', 'in_review', 'approved', 'declined']);

/** One criterion's verdict as the screening stored it (free JSON in the database: fields it may add pass through). */
const criterionVerdictSchema = z.looseObject({
  criterion_id: z.string(),
  definition: z.string(),
  type: z.string(),
  needs_review: z.boolean(),
  verdict: z.enum(['met', 'not_met', 'unclear']),
  evidence: z.string(),
  explanation: z.string().optional().describe("The model's reason, when a model screened it"),
  passages: z
    .array(z.object({ text: z.string(), matched: z.array(z.string()) }))
    .optional()
    .describe("Under an unclear verdict, the record's best sentences with the words that matched"),
});

export const resultSchema = z.object({
  id: z.uuid(),
  trial_id: z.uuid(),
  patient_id: z.uuid(),
  patient_label: z.string(),
  pre_evaluation: preEvaluation,
  criteria_met: z.number().int(),
  criteria_total: z.number().int(),
  relevance: z.number().int().nullable().describe("How likely this is the trial's patient, 0–100; null when screened before it was kept"),
  criteria: z.array(criterionVerdictSchema),
  explanation: z.string(),
  status: resultStatus.describe("The reviewer's decision when there is one, else the screening's own status"),
  machine_status: resultStatus,
  engine: z.string(),
  decision: z.enum(['approved', 'declined']).nullable(),
  decision_note: z.string(),
  decided_by: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  decided_at: z.iso.datetime().nullable(),
  decided_on_pre_evaluation: preEvaluation.nullable(),
  machine_changed_since_decision: z.boolean(),
  reviewed_at: z.iso.datetime().nullable().describe('The same as decided_at, for older clients'),
  created_at: z.iso.datetime(),
});
