import type { DocumentRow } from './service.js';

export function documentView(row: DocumentRow, totalVersions: number, usesAi: boolean) {
  return {
    id: row.id,
    key: row.documentKey,
    version: row.version,
    total_versions: totalVersions,
    status: row.status as 'generating' | 'done' | 'failed',
    text: row.text,
    engine: row.engine,
    uses_ai: row.engine !== 'composer' && row.engine !== 'manual' ? usesAi : false,
    change_kind: row.changeKind,
    change_text: row.changeText,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    evidence: row.evidence ?? null,
  };
}
