import { z } from 'zod';
import type { DocumentEvidence } from '../../../../contract/document-evidence.js';
import { errorCodes, type ErrorCode } from '../../../../contract/errors.js';
import type { DocumentRow } from './service.js';
import { termsToCheck } from './flags.js';

/**
 * Why a failed version was not written: the code its `error` starts with (service.ts), or generation_failed for
 * versions that failed before the code was stored.
 */
function errorCodeOf(row: DocumentRow): ErrorCode | null {
  if (row.status !== 'failed') return null;
  const code = row.error?.split(':', 1)[0];
  return (errorCodes as readonly string[]).includes(code ?? '') ? (code as ErrorCode) : 'generation_failed';
}

/** Links to audio parts that are no longer kept (not saved, or past the retention window) are left out. */
function withKeptAudio(evidence: DocumentEvidence | null, keptAudio: ReadonlySet<string>): DocumentEvidence | null {
  if (!evidence) return null;
  return {
    ...evidence,
    // What the clinician has still to check; those confirmed are listed apart.
    flagged: termsToCheck(evidence),
    checked: evidence.checked ?? [],
    sentences: evidence.sentences.map((s) => ({
      ...s,
      spans: s.spans.map(({ audio, ...span }) => (audio && keptAudio.has(audio.id) ? { ...span, audio } : span)),
    })),
  };
}

/** `keptAudio`: the ids of the consultation's audio parts still stored. */
export function documentView(row: DocumentRow, totalVersions: number, keptAudio: ReadonlySet<string> = new Set()) {
  return {
    id: row.id,
    key: row.documentKey,
    version: row.version,
    total_versions: totalVersions,
    status: row.status as 'generating' | 'done' | 'failed',
    text: row.text,
    engine: row.engine,
    // The engine that wrote this version, not the one running now (an administrator may have changed it since).
    uses_ai: row.engine !== 'composer' && row.engine !== 'manual',
    change_kind: row.changeKind,
    change_text: row.changeText,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    error_code: errorCodeOf(row),
    evidence: withKeptAudio(row.evidence ?? null, keptAudio),
    model: row.model ?? null,
    signed_at: row.signedAt?.toISOString() ?? null,
    signed_by: row.signedBy ?? null,
  };
}

/**
 * What links the document to what it was written from (contract/document-evidence.ts), as stored with the version:
 * open at every level, so what an older or newer version holds passes through whole.
 */
const evidenceSchema = z.looseObject({
  sentences: z.array(
    z.looseObject({
      text: z.string(),
      spans: z.array(
        z.looseObject({
          start: z.number().int(),
          end: z.number().int(),
          quote: z.string(),
          audio: z.looseObject({ id: z.string(), offset_ms: z.number() }).optional().describe('The audio part it was heard in, while that part is kept'),
        }),
      ),
      source: z.enum(['transcript', 'inputs', 'none']),
    }),
  ),
  flagged: z.array(z.string()).describe('Terms no source says, written by an AI engine, that the clinician has not yet confirmed'),
  checked: z.array(z.string()).optional().describe('Flagged terms the clinician confirmed (POST …/checked), for this document'),
  omitted: z
    .array(z.looseObject({ text: z.string(), section: z.string(), missing: z.array(z.string()), start: z.number().int(), end: z.number().int() }))
    .optional()
    .describe('Consultation notes only; absent on versions written before it was computed'),
});

/** One version of a document, as documentView makes it. */
export const documentSchema = z.object({
  id: z.uuid(),
  key: z.string(),
  version: z.number().int(),
  total_versions: z.number().int(),
  status: z.enum(['generating', 'done', 'failed']),
  text: z.string(),
  engine: z.string(),
  uses_ai: z.boolean().describe('Whether an AI engine wrote this version (not the offline composer, not a manual edit)'),
  change_kind: z.string().nullable().describe("The change this version made: 'text' (instructions) or 'markdown' (a new text); null for a first generation"),
  change_text: z.string().nullable(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  error_code: z
    .string()
    .nullable()
    .describe(
      'Why a failed version was not written (an error code: engine_length_limit, engine_content_filter, engine_stopped_early, engine_timed_out, generation_failed); null unless failed. Its text is only what the engine wrote before it stopped: an incomplete draft, never the document',
    ),
  evidence: evidenceSchema.nullable().describe('Computed when the version was written; null for versions written before it was'),
  model: z.string().nullable().describe('The AI model that wrote this version, as its engine names it; null when no model did'),
  signed_at: z.iso.datetime().nullable().describe('When the clinician signed this version; null while it is a draft'),
  signed_by: z.uuid().nullable().describe('Who signed it (a user id)'),
});
export const documentEnvelope = z.object({ generated_document: documentSchema });
