/** Who may see a research space, and the views every research call answers with. */
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { UserRow } from '../../auth/users.js';
import type { Database } from '../../db/client.js';
import {
  clinicalTrials,
  type evaluationResults,
  researchPatientFiles,
  researchPatients,
  researchSpaces,
  trialCriteria,
  type trialScreenings,
  type DecidedOn,
} from '../../db/schema.js';
import { notFound } from '../../errors/domain-error.js';
import type { Criterion, CriterionType, PreEvaluation, ResultStatus } from './criteria.js';

export type SpaceRow = typeof researchSpaces.$inferSelect;
export type TrialRow = typeof clinicalTrials.$inferSelect;
export type CriterionRow = typeof trialCriteria.$inferSelect;
export type ResultRow = typeof evaluationResults.$inferSelect;
export type ScreeningRow = typeof trialScreenings.$inferSelect;

/** How a patient file's text was read (see the OCR job). */
export type TextStatus = 'read' | 'ocr_pending' | 'ocr_running' | 'ocr_done' | 'no_text';

/** Where a space's patient files live in the blob store (deleted with the patient, the space or the account). */
export const researchBlobPrefix = (spaceId: string) => `research/${spaceId}/`;

/**
 * Who may reach a space follows current membership, never authorship: a space made in an organization belongs to
 * whoever is a member of it now (its creator only while still one, so a removed member loses it at once); a
 * personal space (made outside any organization) belongs to its creator alone. `user` is the row read from the
 * database for this request (http/authenticate.ts), so a removal counts from the next request on.
 */
export const visibleTo = (user: Pick<UserRow, 'id' | 'organizationId'>) =>
  or(
    and(isNull(researchSpaces.organizationId), eq(researchSpaces.createdBy, user.id)),
    user.organizationId ? eq(researchSpaces.organizationId, user.organizationId) : undefined,
  );

/** The space when the user may see it; 404 otherwise (a space of someone else is not even said to exist). */
export async function spaceFor(db: Database, user: UserRow, spaceId: string): Promise<SpaceRow> {
  const [row] = await db
    .select()
    .from(researchSpaces)
    .where(and(eq(researchSpaces.id, spaceId), visibleTo(user)));
  if (!row) throw notFound('Research space not found');
  return row;
}

export async function trialIn(db: Database, space: SpaceRow, trialId: string): Promise<TrialRow> {
  const [row] = await db
    .select()
    .from(clinicalTrials)
    .where(and(eq(clinicalTrials.id, trialId), eq(clinicalTrials.spaceId, space.id)));
  if (!row) throw notFound('Trial not found');
  return row;
}

export async function criteriaOf(db: Database, trialId: string): Promise<CriterionRow[]> {
  return (await criteriaOfTrials(db, [trialId])).get(trialId) ?? [];
}

/** The criteria of several trials in one query, by trial. */
export async function criteriaOfTrials(db: Database, trialIds: string[]): Promise<Map<string, CriterionRow[]>> {
  const byTrial = new Map<string, CriterionRow[]>();
  if (trialIds.length === 0) return byTrial;
  const rows = await db
    .select()
    .from(trialCriteria)
    .where(inArray(trialCriteria.trialId, trialIds))
    .orderBy(asc(trialCriteria.position), asc(trialCriteria.createdAt));
  for (const row of rows) byTrial.set(row.trialId, [...(byTrial.get(row.trialId) ?? []), row]);
  return byTrial;
}

export const asCriterion = (c: CriterionRow): Criterion => ({ id: c.id, definition: c.definition, type: c.type as CriterionType, needsReview: c.needsReview });

export const criterionView = (c: CriterionRow) => ({ id: c.id, definition: c.definition, type: c.type as CriterionType, needs_review: c.needsReview });

export const trialView = (t: TrialRow, criteria: CriterionRow[]) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
  criteria: criteria.map(criterionView),
});

/**
 * A shared space is deleted for everyone: only its creator while still a member, or a current administrator of its
 * organization, may. A personal space only by its creator.
 */
export const canDeleteSpace = (s: SpaceRow, user: Pick<UserRow, 'id' | 'organizationId' | 'organizationRole'>) =>
  s.organizationId === null
    ? s.createdBy === user.id
    : s.organizationId === user.organizationId && (s.createdBy === user.id || user.organizationRole === 'admin');

export const spaceView = (s: SpaceRow, user: Pick<UserRow, 'id' | 'organizationId' | 'organizationRole'>) => ({
  id: s.id,
  name: s.name,
  shared_with_organization: s.organizationId !== null,
  can_delete: canDeleteSpace(s, user),
  created_at: s.createdAt.toISOString(),
});

/** The space's patients with their files; `patientId` narrows it to one. */
export async function patientsView(db: Database, spaceId: string, patientId?: string) {
  const patients = await db
    .select()
    .from(researchPatients)
    .where(and(eq(researchPatients.spaceId, spaceId), patientId ? eq(researchPatients.id, patientId) : undefined))
    .orderBy(asc(researchPatients.createdAt));
  const files = await db
    .select({
      id: researchPatientFiles.id,
      patientId: researchPatientFiles.patientId,
      fileName: researchPatientFiles.fileName,
      sizeBytes: researchPatientFiles.sizeBytes,
      pages: researchPatientFiles.pages,
      textStatus: researchPatientFiles.textStatus,
    })
    .from(researchPatientFiles)
    .innerJoin(researchPatients, eq(researchPatients.id, researchPatientFiles.patientId))
    .where(and(eq(researchPatients.spaceId, spaceId), patientId ? eq(researchPatients.id, patientId) : undefined))
    .orderBy(asc(researchPatientFiles.createdAt));
  return patients.map((p) => ({
    id: p.id,
    label: p.label,
    created_at: p.createdAt.toISOString(),
    files: files
      .filter((f) => f.patientId === p.id)
      .map((f) => ({ id: f.id, file_name: f.fileName, size_bytes: f.sizeBytes, pages: f.pages, text_status: f.textStatus as TextStatus })),
  }));
}

export const screeningView = (s: ScreeningRow) => ({
  id: s.id,
  trial_id: s.trialId,
  status: s.status as 'running' | 'completed' | 'failed',
  total: s.total,
  done: s.done,
  engine: s.engine,
  error: s.error,
  created_at: s.createdAt.toISOString(),
  completed_at: s.completedAt?.toISOString() ?? null,
});

/** The screening's verdict on a result, as far as a reviewer's decision rests on it: its class and each criterion's verdict. */
export const machineVerdict = (r: Pick<ResultRow, 'preEvaluation' | 'criteria'>): DecidedOn => ({
  pre_evaluation: r.preEvaluation,
  verdicts: Object.fromEntries(r.criteria.map((c) => [c.criterion_id, c.verdict])),
});

/** A reviewer decided on one verdict and a later screening gave another: the decision stands, but says so. */
export function machineChangedSinceDecision(r: Pick<ResultRow, 'decision' | 'decidedOn' | 'preEvaluation' | 'criteria'>): boolean {
  const seen = r.decidedOn;
  if (!r.decision || !seen) return false;
  const now = machineVerdict(r);
  if (now.pre_evaluation !== seen.pre_evaluation) return true;
  const ids = new Set([...Object.keys(now.verdicts), ...Object.keys(seen.verdicts)]);
  return [...ids].some((id) => now.verdicts[id] !== seen.verdicts[id]);
}

/**
 * `status` is what the list shows: the reviewer's decision when there is one, else the screening's own status
 * (`machine_status`). `deciderName` is the author's name, read even after they left the organization.
 */
export const resultView = (r: ResultRow, patientLabel: string, deciderName: string | null = null) => ({
  id: r.id,
  trial_id: r.trialId,
  patient_id: r.patientId,
  patient_label: patientLabel,
  pre_evaluation: r.preEvaluation as PreEvaluation,
  criteria_met: r.criteriaMet,
  criteria_total: r.criteriaTotal,
  /** How likely this is the trial's patient, 0–100 (relevance.ts); null when screened before it was kept. */
  relevance: r.relevance,
  criteria: r.criteria,
  explanation: r.explanation,
  status: (r.decision ?? r.status) as ResultStatus,
  machine_status: r.status as ResultStatus,
  engine: r.engine,
  decision: r.decision as 'approved' | 'declined' | null,
  decision_note: r.decisionNote,
  decided_by: r.decidedBy ? { id: r.decidedBy, name: deciderName ?? '' } : null,
  decided_at: r.decidedAt?.toISOString() ?? null,
  decided_on_pre_evaluation: r.decision ? ((r.decidedOn?.pre_evaluation as PreEvaluation | undefined) ?? null) : null,
  machine_changed_since_decision: machineChangedSinceDecision(r),
  /** The same as decided_at, for clients written before decisions had their own fields. */
  reviewed_at: r.decidedAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
});
