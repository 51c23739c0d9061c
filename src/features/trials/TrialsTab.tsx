import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { ApiFailureError } from '../../api/client';
import { researchApi, type Criterion, type Trial } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { describeFailure } from '../i18n/api-error-messages';
import { CriterionDialog } from './CriterionDialog';
import { criterionTypeLabel } from './research-labels';
import { TrialDialog } from './TrialDialog';

type Editing = { kind: 'trial'; trial?: Trial } | { kind: 'criterion'; trial: Trial; criterion?: Criterion };

/** The space's trials, each with its criteria: add, edit, delete (confirmed), and criteria generated from the description. */
export function TrialsTab({ spaceId, trials, onChanged }: { spaceId: string; trials: Trial[]; onChanged: () => Promise<void> }) {
  const { i18n, t } = useLingui();
  const [editing, setEditing] = useState<Editing>();
  const [generating, setGenerating] = useState<string>();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string }>();
  // A failed save is said inside the open dialog, where the clinician is looking.
  const [dialogError, setDialogError] = useState<string>();

  const failed = (err: unknown) => setNotice({ tone: 'error', text: describeFailure(i18n, err) });
  const close = () => {
    setEditing(undefined);
    setDialogError(undefined);
  };

  async function saveTrial(draft: { name: string; description: string }) {
    try {
      if (editing?.kind === 'trial' && editing.trial) await researchApi.updateTrial(spaceId, editing.trial.id, draft);
      else await researchApi.createTrial(spaceId, draft);
      close();
      await onChanged();
    } catch (err) {
      setDialogError(describeFailure(i18n, err));
    }
  }

  async function saveCriterion(draft: Omit<Criterion, 'id'>) {
    if (editing?.kind !== 'criterion') return;
    try {
      if (editing.criterion) await researchApi.updateCriterion(spaceId, editing.trial.id, editing.criterion.id, draft);
      else await researchApi.addCriterion(spaceId, editing.trial.id, draft);
      close();
      await onChanged();
    } catch (err) {
      setDialogError(describeFailure(i18n, err));
    }
  }

  async function generate(trial: Trial) {
    setGenerating(trial.id);
    setNotice(undefined);
    try {
      const { criteria, engine } = await researchApi.generateCriteria(spaceId, trial.id);
      await onChanged();
      const n = criteria.length;
      const text =
        n === 0
          ? t`No new criteria: those in the description are already in the list.`
          : engine === 'offline'
            ? t`${n} criteria added from the description's lists (without AI). Check their types.`
            : t`${n} criteria added by AI. Check each one before screening.`;
      setNotice({ tone: 'success', text });
    } catch (err) {
      const noneFound = err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.status === 422;
      setNotice({
        tone: 'error',
        text: noneFound
          ? t`No criteria were found in the description. List them under “Inclusion criteria” and “Exclusion criteria”, or add them one by one.`
          : describeFailure(i18n, err),
      });
    } finally {
      setGenerating(undefined);
    }
  }

  async function removeTrial(trial: Trial) {
    if (
      !(await confirm({
        type: 'warning',
        title: t`Delete the trial “${trial.name}”?`,
        message: t`Its criteria and screening results are deleted too. This cannot be undone.`,
        confirmLabel: t`Delete`,
      }))
    )
      return;
    await researchApi.deleteTrial(spaceId, trial.id).then(onChanged, failed);
  }

  async function removeCriterion(trial: Trial, criterion: Criterion) {
    if (
      !(await confirm({
        type: 'warning',
        title: t`Delete this criterion?`,
        message: t`“${criterion.definition}” is removed from the trial. Past results keep it. This cannot be undone.`,
        confirmLabel: t`Delete`,
      }))
    )
      return;
    await researchApi.deleteCriterion(spaceId, trial.id, criterion.id).then(onChanged, failed);
  }

  return (
    <>
      <div className="toolbar">
        <Button onClick={() => setEditing({ kind: 'trial' })}>
          <Trans>Add trial</Trans>
        </Button>
      </div>
      {notice && (
        <Alert tone={notice.tone} key={notice.text}>
          {notice.text}
        </Alert>
      )}
      {trials.length === 0 && (
        <p className="muted">
          <Trans>No trials yet. Add one with its description, then its criteria.</Trans>
        </p>
      )}
      {trials.map((trial) => (
        <section key={trial.id} className="card trial-card" aria-labelledby={`trial-${trial.id}`} data-testid="trial">
          <div className="trial-head">
            <h2 id={`trial-${trial.id}`}>{trial.name}</h2>
            <div className="row-actions">
              <Button variant="secondary" onClick={() => setEditing({ kind: 'trial', trial })} aria-label={t`Edit trial ${trial.name}`}>
                <Trans>Edit</Trans>
              </Button>
              <Button variant="ghost" onClick={() => void removeTrial(trial)} aria-label={t`Delete trial ${trial.name}`}>
                <Trans>Delete</Trans>
              </Button>
            </div>
          </div>
          {trial.description && (
            <details className="trial-description">
              <summary>
                <Trans>Description</Trans>
              </summary>
              <p>{trial.description}</p>
            </details>
          )}
          <h3>
            <Trans>Criteria</Trans>
          </h3>
          {trial.criteria.length === 0 ? (
            <p className="muted">
              <Trans>No criteria yet.</Trans>
            </p>
          ) : (
            <ul className="criteria-list">
              {trial.criteria.map((c) => (
                <li key={c.id} className="criterion-item">
                  <div>
                    <span className="badge" data-criterion={c.type}>
                      {i18n._(criterionTypeLabel[c.type])}
                    </span>{' '}
                    {c.needs_review && (
                      <span className="badge" data-status="review">
                        <Trans>Needs review</Trans>
                      </span>
                    )}
                    <p>{c.definition}</p>
                  </div>
                  <div className="row-actions">
                    <Button
                      variant="ghost"
                      onClick={() => setEditing({ kind: 'criterion', trial, criterion: c })}
                      aria-label={t`Edit criterion: ${c.definition}`}
                    >
                      <Trans>Edit</Trans>
                    </Button>
                    <Button variant="ghost" onClick={() => void removeCriterion(trial, c)} aria-label={t`Delete criterion: ${c.definition}`}>
                      <Trans>Delete</Trans>
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <div className="row-actions">
            <Button variant="secondary" onClick={() => setEditing({ kind: 'criterion', trial })}>
              <Trans>Add criterion</Trans>
            </Button>
            <Button variant="secondary" busy={generating === trial.id} disabled={!trial.description.trim()} onClick={() => void generate(trial)}>
              <Trans>Generate criteria from the description</Trans>
            </Button>
          </div>
        </section>
      ))}
      {editing?.kind === 'trial' && <TrialDialog initial={editing.trial} error={dialogError} onSave={saveTrial} onClose={close} />}
      {editing?.kind === 'criterion' && <CriterionDialog initial={editing.criterion} error={dialogError} onSave={saveCriterion} onClose={close} />}
    </>
  );
}
