import { api } from './instance';
import { call } from './client';

export const CRITERION_TYPES = ['critical_inclusion', 'critical_exclusion', 'non_critical_inclusion', 'non_critical_exclusion'] as const;
export type CriterionType = (typeof CRITERION_TYPES)[number];
export type Verdict = 'met' | 'not_met' | 'unclear';
export type PreEvaluation = 'not_approved' | 'fit' | 'possible';
export const RESULT_STATUSES = ['requires_review', 'in_review', 'approved', 'declined'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export type ResearchSpace = { id: string; name: string; shared_with_organization: boolean; can_delete: boolean; created_at: string };
export type Criterion = { id: string; definition: string; type: CriterionType; needs_review: boolean };
export type CriterionDraft = Omit<Criterion, 'id'>;
export type Trial = { id: string; name: string; description: string; created_at: string; updated_at: string; criteria: Criterion[] };
export type TrialDraft = Pick<Trial, 'name' | 'description'>;
/** read: the PDF's own text; ocr_*: scanned pages, read in the background; no_text: nothing legible. */
export type TextStatus = 'read' | 'ocr_pending' | 'ocr_running' | 'ocr_done' | 'no_text';
export type Patient = {
  id: string;
  label: string;
  created_at: string;
  files: { id: string; file_name: string; size_bytes: number; pages: number; text_status: TextStatus }[];
};
export const isBeingRead = (p: Patient) => p.files.some((f) => f.text_status === 'ocr_pending' || f.text_status === 'ocr_running');
export type Screening = {
  id: string;
  trial_id: string;
  status: 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  engine: string;
  error: string | null;
  created_at: string;
  completed_at: string | null;
};
/** A sentence of the record that speaks to a criterion, with the words of it that matched. */
export type Passage = { text: string; matched: string[] };
/** `explanation`: the model's reason, when a model screened it; `passages`: under an unclear verdict, the record's best sentences. */
export type CriterionResult = {
  criterion_id: string;
  definition: string;
  type: CriterionType;
  needs_review: boolean;
  verdict: Verdict;
  evidence: string;
  explanation?: string;
  passages?: Passage[];
};
export type EvaluationResult = {
  id: string;
  trial_id: string;
  patient_id: string;
  patient_label: string;
  pre_evaluation: PreEvaluation;
  criteria_met: number;
  criteria_total: number;
  /** How likely this is the trial's patient, 0–100; null when screened before it was kept. */
  relevance: number | null;
  criteria: CriterionResult[];
  explanation: string;
  /** The reviewer's decision when there is one, else the screening's own status. */
  status: ResultStatus;
  machine_status: 'in_review' | 'requires_review';
  engine: string;
  decision: Decision | null;
  decision_note: string;
  /** Who decided or wrote the note (a member who has left stays named); null when the account was deleted or nobody did. */
  decided_by: { id: string; name: string } | null;
  decided_at: string | null;
  /** The screening's class the reviewer saw when deciding. */
  decided_on_pre_evaluation: PreEvaluation | null;
  /** A later screening gave another verdict than the one decided on; the decision stands. */
  machine_changed_since_decision: boolean;
  reviewed_at: string | null;
  created_at: string;
};
export type Decision = 'approved' | 'declined';
/** A decision (null undoes it), a note, or both. */
export type DecisionChange = { decision?: Decision | null; note?: string };

const spaces = 'v1/research_spaces';

export const researchApi = {
  spaces: () => call(() => api().get(spaces).json<{ research_spaces: ResearchSpace[] }>()),
  space: (id: string) => call(() => api().get(`${spaces}/${id}`).json<{ research_space: ResearchSpace }>()),
  createSpace: (name: string) =>
    call(() =>
      api()
        .post(spaces, { json: { research_space: { name } } })
        .json<{ research_space: ResearchSpace }>(),
    ),
  renameSpace: (id: string, name: string) =>
    call(() =>
      api()
        .put(`${spaces}/${id}`, { json: { research_space: { name } } })
        .json<{ research_space: ResearchSpace }>(),
    ),
  deleteSpace: (id: string) =>
    call(() =>
      api()
        .delete(`${spaces}/${id}`)
        .then(() => undefined),
    ),

  trials: (space: string) => call(() => api().get(`${spaces}/${space}/trials`).json<{ trials: Trial[] }>()),
  createTrial: (space: string, trial: TrialDraft) => call(() => api().post(`${spaces}/${space}/trials`, { json: { trial } }).json<{ trial: Trial }>()),
  updateTrial: (space: string, id: string, trial: TrialDraft) =>
    call(() => api().put(`${spaces}/${space}/trials/${id}`, { json: { trial } }).json<{ trial: Trial }>()),
  deleteTrial: (space: string, id: string) =>
    call(() =>
      api()
        .delete(`${spaces}/${space}/trials/${id}`)
        .then(() => undefined),
    ),

  addCriterion: (space: string, trial: string, criterion: CriterionDraft) =>
    call(() => api().post(`${spaces}/${space}/trials/${trial}/criteria`, { json: { criterion } }).json<{ criterion: Criterion }>()),
  updateCriterion: (space: string, trial: string, id: string, criterion: CriterionDraft) =>
    call(() => api().put(`${spaces}/${space}/trials/${trial}/criteria/${id}`, { json: { criterion } }).json<{ criterion: Criterion }>()),
  deleteCriterion: (space: string, trial: string, id: string) =>
    call(() =>
      api()
        .delete(`${spaces}/${space}/trials/${trial}/criteria/${id}`)
        .then(() => undefined),
    ),
  generateCriteria: (space: string, trial: string) =>
    call(() => api().post(`${spaces}/${space}/trials/${trial}/criteria/generate`).json<{ criteria: Criterion[]; engine: string }>()),

  patients: (space: string) => call(() => api().get(`${spaces}/${space}/patients`).json<{ patients: Patient[] }>()),
  addPatient: (space: string, label: string, files: File[]) => {
    const form = new FormData();
    form.append('label', label);
    for (const f of files) form.append('files', f, f.name);
    return call(() => api().post(`${spaces}/${space}/patients`, { body: form }).json<{ patient: Patient }>());
  },
  patientFile: (space: string, patient: string, file: string) => call(() => api().get(`${spaces}/${space}/patients/${patient}/files/${file}`).blob()),
  deletePatient: (space: string, id: string) =>
    call(() =>
      api()
        .delete(`${spaces}/${space}/patients/${id}`)
        .then(() => undefined),
    ),

  screenings: (space: string, trial: string) => call(() => api().get(`${spaces}/${space}/trials/${trial}/screenings`).json<{ screenings: Screening[] }>()),
  screening: (space: string, trial: string, id: string) =>
    call(() => api().get(`${spaces}/${space}/trials/${trial}/screenings/${id}`).json<{ screening: Screening }>()),
  startScreening: (space: string, trial: string, patientIds?: string[]) =>
    call(() =>
      api()
        .post(`${spaces}/${space}/trials/${trial}/screenings`, { json: patientIds ? { patient_ids: patientIds } : {} })
        .json<{ screening: Screening }>(),
    ),

  results: (space: string, trial: string) =>
    call(() =>
      api()
        .get(`${spaces}/${space}/results`, { searchParams: { trial_id: trial } })
        .json<{ results: EvaluationResult[] }>(),
    ),
  decideResult: (space: string, id: string, change: DecisionChange) =>
    call(() =>
      api()
        .put(`${spaces}/${space}/results/${id}`, { json: { result: change } })
        .json<{ result: EvaluationResult }>(),
    ),
  deleteResult: (space: string, id: string) =>
    call(() =>
      api()
        .delete(`${spaces}/${space}/results/${id}`)
        .then(() => undefined),
    ),
  resultsCsv: (space: string, trial: string) =>
    call(() =>
      api()
        .get(`${spaces}/${space}/results.csv`, { searchParams: { trial_id: trial } })
        .blob(),
    ),
};
