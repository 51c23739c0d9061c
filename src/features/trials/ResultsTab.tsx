import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useState } from 'react';
import { ApiFailureError } from '../../api/client';
import { researchApi, type DecisionChange, type EvaluationResult, type PreEvaluation, type Screening, type Trial } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { confirm } from '../../ui/confirm';
import { saveFile } from '../../ui/save-file';
import { SelectField } from '../../ui/SelectField';
import { describeFailure } from '../i18n/api-error-messages';
import { DecidedBy, ScreeningChangedBadge } from './DecisionNotes';
import { ResultDialog } from './ResultDialog';
import { preEvaluationLabel, resultStatusLabel } from './research-labels';

const POLL_MS = 1000;
const PRE_EVALUATIONS: PreEvaluation[] = ['fit', 'possible', 'not_approved'];
type Filter = 'all' | 'to_review' | PreEvaluation;
/** Results no researcher has approved or declined yet. */
const toDecide = (r: EvaluationResult) => !r.decision;

/** Run a trial's screening over the space's patients, follow it, and review and download the results. */
export function ResultsTab({
  spaceId,
  trials,
  patientIds,
  recordsBeingRead = false,
}: {
  spaceId: string;
  trials: Trial[];
  patientIds: string[];
  recordsBeingRead?: boolean;
}) {
  const { i18n, t } = useLingui();
  const [trialId, setTrialId] = useState(trials[0]?.id ?? '');
  const [results, setResults] = useState<EvaluationResult[]>();
  const [screening, setScreening] = useState<Screening>();
  const [open, setOpen] = useState<EvaluationResult>();
  const [error, setError] = useState<string>();
  const [onlyNew, setOnlyNew] = useState(false);
  const [filter, setFilter] = useState<Filter>('all');
  const shown = (r: EvaluationResult) => filter === 'all' || (filter === 'to_review' ? toDecide(r) : r.pre_evaluation === filter);
  const trial = trials.find((x) => x.id === trialId);
  const patientCount = patientIds.length;
  // Patients added since the last screening: with AI, screening only them spares a credit for each of the others.
  const unscreened = results ? patientIds.filter((id) => !results.some((r) => r.patient_id === id)) : [];
  const canScreenOnlyNew = Boolean(results?.length) && unscreened.length > 0;

  // Said in the Results card itself: a failed load must not read as "Loading…" for ever.
  const [resultsError, setResultsError] = useState<string>();
  const loadResults = useCallback(async () => {
    if (!trialId) return;
    try {
      setResults((await researchApi.results(spaceId, trialId)).results);
      setResultsError(undefined);
    } catch (err) {
      setResultsError(describeFailure(i18n, err));
    }
  }, [i18n, spaceId, trialId]);

  useEffect(() => {
    setResults(undefined);
    setScreening(undefined);
    void loadResults();
    // A screening started earlier (or by a colleague) and still running is followed from here.
    if (trialId)
      researchApi.screenings(spaceId, trialId).then(
        (r) => setScreening(r.screenings[0]),
        () => undefined,
      );
  }, [loadResults, spaceId, trialId]);

  const running = screening?.status === 'running';
  useEffect(() => {
    if (!running || !screening) return;
    const timer = setTimeout(() => {
      researchApi.screening(spaceId, screening.trial_id, screening.id).then(
        (r) => {
          setScreening(r.screening);
          if (r.screening.status !== 'running') void loadResults();
        },
        () => setScreening({ ...screening }),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, screening, spaceId, loadResults]);

  async function run() {
    setError(undefined);
    try {
      setScreening((await researchApi.startScreening(spaceId, trialId, canScreenOnlyNew && onlyNew ? unscreened : undefined)).screening);
    } catch (err) {
      const noCredits = err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.code === 'insufficient_credits';
      const reading = err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.code === 'records_being_read';
      const busy = !reading && err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.status === 409;
      setError(
        noCredits
          ? t`Screening with AI uses one credit a patient, and there are not enough left. More credits are bought through support.`
          : reading
            ? t`Scanned records are still being read. Screening can start when they are ready.`
            : busy
              ? t`This trial is already being screened. Its results appear here when it ends.`
              : describeFailure(i18n, err),
      );
    }
  }

  async function decide(result: EvaluationResult, change: DecisionChange) {
    try {
      const { result: updated } = await researchApi.decideResult(spaceId, result.id, change);
      setResults((list) => list?.map((r) => (r.id === updated.id ? updated : r)));
      setOpen(undefined);
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  async function remove(result: EvaluationResult) {
    if (
      !(await confirm({
        type: 'warning',
        title: t`Delete the result of ${result.patient_label}?`,
        message: t`The screening result is deleted; the patient stays. This cannot be undone.`,
        confirmLabel: t`Delete`,
      }))
    )
      return;
    try {
      await researchApi.deleteResult(spaceId, result.id);
      setResults((list) => list?.filter((r) => r.id !== result.id));
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  async function downloadCsv() {
    try {
      const csv = await researchApi.resultsCsv(spaceId, trialId);
      const name =
        (trial?.name ?? 'trial')
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .trim()
          .replace(/\s+/g, '-') || 'trial';
      saveFile(csv, `${name}-results.csv`);
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  if (trials.length === 0) {
    return (
      <p className="muted">
        <Trans>Add a trial with its criteria first.</Trans>
      </p>
    );
  }
  const cannotRun = !trial?.criteria.length
    ? t`This trial has no criteria yet.`
    : patientCount === 0
      ? t`Add patients before screening.`
      : recordsBeingRead
        ? t`Scanned records are still being read. Screening can start when they are ready.`
        : undefined;
  return (
    <>
      <section className="card" aria-labelledby="screening-title">
        <h2 id="screening-title">
          <Trans>Screening</Trans>
        </h2>
        <SelectField
          label={t`Trial`}
          value={trialId}
          options={trials.map((x) => ({ value: x.id, label: x.name }))}
          onChange={(e) => setTrialId(e.target.value)}
        />
        <div className="row-actions">
          <Button onClick={() => void run()} busy={running} disabled={Boolean(cannotRun)}>
            {running ? <Trans>Screening…</Trans> : <Trans>Run screening</Trans>}
          </Button>
          {cannotRun && <span className="muted">{cannotRun}</span>}
        </div>
        {canScreenOnlyNew && !running && (
          <Checkbox
            checked={onlyNew}
            onChange={(e) => setOnlyNew(e.target.checked)}
            label={
              <Plural
                value={unscreened.length}
                one="Only the # patient not yet screened for this trial"
                other="Only the # patients not yet screened for this trial"
              />
            }
          />
        )}
        <div role="status" aria-live="polite">
          {running && screening && (
            <div className="screening-progress">
              <progress max={screening.total} value={screening.done} aria-label={t`Screening progress`} />
              <span>
                <Trans>
                  Screening {screening.done} of {screening.total} patients…
                </Trans>
              </span>
            </div>
          )}
          {screening?.status === 'failed' && (
            <Alert tone="error">
              <Trans>The screening did not finish. Run it again.</Trans>
            </Alert>
          )}
          {screening?.status === 'completed' && screening.error && (
            <Alert tone="error">
              <Trans>Some patients could not be screened. Run the screening again to retry them.</Trans>
            </Alert>
          )}
        </div>
        {error && <Alert tone="error">{error}</Alert>}
      </section>
      <section className="card" aria-labelledby="results-title">
        <div className="trial-head">
          <h2 id="results-title">
            <Trans>Results</Trans>
          </h2>
          <Button variant="secondary" onClick={() => void downloadCsv()} disabled={!results?.length}>
            <Trans>Download CSV</Trans>
          </Button>
        </div>
        {resultsError && (
          <Alert tone="error">
            {resultsError}{' '}
            <Button variant="ghost" onClick={() => void loadResults()}>
              <Trans>Try again</Trans>
            </Button>
          </Alert>
        )}
        {results === undefined ? (
          !resultsError && (
            <p role="status" className="muted">
              <Trans>Loading…</Trans>
            </p>
          )
        ) : results.length === 0 ? (
          <p className="muted">
            <Trans>No results for this trial yet. Run the screening.</Trans>
          </p>
        ) : (
          <>
            <SelectField
              label={t`Show`}
              value={filter}
              options={[
                { value: 'all', label: t`All patients (${results.length})` },
                ...PRE_EVALUATIONS.map((p) => ({
                  value: p,
                  label: `${i18n._(preEvaluationLabel[p])} (${results.filter((r) => r.pre_evaluation === p).length})`,
                })),
                { value: 'to_review', label: t`Still to decide (${results.filter(toDecide).length})` },
              ]}
              onChange={(e) => setFilter(e.target.value as Filter)}
            />
            <p className="muted">
              <Trans>Likeliest patients first, by relevance to the trial (0–100); patients a critical criterion rules out come last.</Trans>
            </p>
            <div className="table-scroll">
              <table className="data-table" data-stack="narrow">
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Patient</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Pre-evaluation</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Relevance</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Criteria satisfied</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Result</Trans>
                    </th>
                    <th scope="col">
                      <span className="visually-hidden">
                        <Trans>Actions</Trans>
                      </span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {results.filter(shown).map((r) => (
                    <tr key={r.id} data-testid="result">
                      <td data-label={t`Patient`}>{r.patient_label}</td>
                      <td data-label={t`Pre-evaluation`}>
                        <span className="badge" data-result={r.pre_evaluation}>
                          {i18n._(preEvaluationLabel[r.pre_evaluation])}
                        </span>
                      </td>
                      <td data-label={t`Relevance`}>
                        {r.relevance === null ? (
                          '–'
                        ) : (
                          <>
                            <span aria-hidden="true">{r.relevance}</span>
                            <span className="visually-hidden">{t`${r.relevance} of 100`}</span>
                          </>
                        )}
                      </td>
                      <td data-label={t`Criteria satisfied`}>
                        {r.criteria_met}/{r.criteria_total}
                      </td>
                      <td data-label={t`Result`}>
                        <select
                          className="inline-select"
                          aria-label={t`Result for ${r.patient_label}`}
                          value={r.decision ?? ''}
                          onChange={(e) => void decide(r, { decision: e.target.value === 'approved' || e.target.value === 'declined' ? e.target.value : null })}
                        >
                          {/* Undecided shows the screening's own status; choosing it undoes a decision. */}
                          <option value="">{i18n._(resultStatusLabel[r.machine_status])}</option>
                          <option value="approved">{i18n._(resultStatusLabel.approved)}</option>
                          <option value="declined">{i18n._(resultStatusLabel.declined)}</option>
                        </select>
                        <div>
                          <ScreeningChangedBadge result={r} /> <DecidedBy result={r} />
                        </div>
                      </td>
                      <td className="row-actions">
                        <Button variant="secondary" onClick={() => setOpen(r)} aria-label={t`Details for ${r.patient_label}`}>
                          <Trans>Details</Trans>
                        </Button>
                        <Button variant="ghost" onClick={() => void remove(r)} aria-label={t`Delete the result of ${r.patient_label}`}>
                          <Trans>Delete</Trans>
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {results.filter(shown).length === 0 && (
              <p className="muted">
                <Trans>No patient matches this filter.</Trans>
              </p>
            )}
          </>
        )}
      </section>
      {open && <ResultDialog result={open} onDecide={(change) => void decide(open, change)} onClose={() => setOpen(undefined)} />}
    </>
  );
}
