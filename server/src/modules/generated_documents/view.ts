import type { DocumentEvidence } from '../../../../contract/document-evidence.js';
import type { DocumentRow } from './service.js';

/** Links to audio parts that are no longer kept (not saved, or past the retention window) are left out. */
function withKeptAudio(evidence: DocumentEvidence | null, keptAudio: ReadonlySet<string>): DocumentEvidence | null {
  if (!evidence) return null;
  return {
    ...evidence,
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
    evidence: withKeptAudio(row.evidence ?? null, keptAudio),
  };
}
