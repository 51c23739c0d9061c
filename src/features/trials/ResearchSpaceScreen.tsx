import { Trans, useLingui } from '@lingui/react/macro';
import * as Tabs from '@radix-ui/react-tabs';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { ApiFailureError } from '../../api/client';
import { isBeingRead, researchApi, type Patient, type ResearchSpace, type Trial } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { describeFailure } from '../i18n/api-error-messages';
import { PatientsTab } from './PatientsTab';
import { RenameSpaceDialog } from './RenameSpaceDialog';
import { ResultsTab } from './ResultsTab';
import { TrialsTab } from './TrialsTab';
import { useDocumentTitle } from '../../ui/use-document-title';

/** /trials/{space}: one research space, with tabs for trials, patients and results (spec §2). */
export function ResearchSpaceScreen({ spaceId }: { spaceId: string }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const [space, setSpace] = useState<ResearchSpace | null>();
  const [trials, setTrials] = useState<Trial[]>();
  const [patients, setPatients] = useState<Patient[]>();
  const [error, setError] = useState<string>();
  const [renaming, setRenaming] = useState(false);
  useDocumentTitle(space === null ? t`Research space not found` : (space?.name ?? t`Research space`));

  const loadTrials = useCallback(
    () =>
      researchApi.trials(spaceId).then(
        (r) => setTrials(r.trials),
        (err) => setError(describeFailure(i18n, err)),
      ),
    [i18n, spaceId],
  );
  // A refresh that fails is said, and tried again (the list keeps following the records being read).
  const [refreshError, setRefreshError] = useState<string>();
  const [refreshFailures, setRefreshFailures] = useState(0);
  const loadPatients = useCallback(
    () =>
      researchApi.patients(spaceId).then(
        (r) => {
          setPatients(r.patients);
          setRefreshError(undefined);
          setRefreshFailures(0);
        },
        (err) => {
          setRefreshError(describeFailure(i18n, err));
          setRefreshFailures((n) => n + 1);
        },
      ),
    [i18n, spaceId],
  );

  useEffect(() => {
    researchApi.space(spaceId).then(
      (r) => {
        setSpace(r.research_space);
        void loadTrials();
        void loadPatients();
      },
      (err) =>
        err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.status === 404 ? setSpace(null) : setError(describeFailure(i18n, err)),
    );
  }, [i18n, spaceId, loadTrials, loadPatients]);

  // Scanned records are read on the server a few seconds a page; the list follows until every one is read.
  const reading = patients?.some(isBeingRead) ?? false;
  // biome-ignore lint/correctness/useExhaustiveDependencies: patients: each new list arms the next one-shot timer; without it the list stops following after the first refresh.
  useEffect(() => {
    if (!reading) return;
    const timer = setTimeout(() => void loadPatients(), refreshFailures ? Math.min(30_000, 3000 * 2 ** Math.min(refreshFailures, 4)) : 3000);
    return () => clearTimeout(timer);
  }, [reading, patients, loadPatients, refreshFailures]);

  async function removeSpace() {
    if (!space) return;
    const ok = await confirm({
      type: 'warning',
      title: t`Delete the space “${space.name}”?`,
      message: t`Every trial, patient file and result in it is deleted, for everyone who shares it. This cannot be undone.`,
      confirmLabel: t`Delete`,
    });
    if (!ok) return;
    try {
      await researchApi.deleteSpace(space.id);
      await navigate({ to: '/trials/{-$space}', params: { space: undefined } });
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  const back = (
    <Link to="/trials/{-$space}" params={{ space: undefined }}>
      <Trans>All research spaces</Trans>
    </Link>
  );
  if (space === null) {
    return (
      <>
        <h1>
          <Trans>Research space not found</Trans>
        </h1>
        <p className="muted">
          <Trans>It was deleted, or it belongs to someone else.</Trans>
        </p>
        {back}
      </>
    );
  }
  return (
    <>
      <p>{back}</p>
      <div className="trial-head">
        <h1>{space?.name ?? <Trans>Research space</Trans>}</h1>
        {space && (
          <div className="row-actions">
            <Button variant="secondary" onClick={() => setRenaming(true)}>
              <Trans>Rename</Trans>
            </Button>
            {space.can_delete && (
              <Button variant="ghost" onClick={() => void removeSpace()}>
                <Trans>Delete space</Trans>
              </Button>
            )}
          </div>
        )}
      </div>
      {space && renaming && (
        <RenameSpaceDialog
          space={space}
          onRenamed={(renamed) => {
            setSpace(renamed);
            setRenaming(false);
          }}
          onClose={() => setRenaming(false)}
        />
      )}
      {error && <Alert tone="error">{error}</Alert>}
      {refreshError && <Alert tone="warning">{refreshError}</Alert>}
      {trials && patients ? (
        <Tabs.Root defaultValue="trials">
          <Tabs.List className="tabs" aria-label={t`Research space`}>
            <Tabs.Trigger value="trials" className="tab">
              <Trans>Trials</Trans>
            </Tabs.Trigger>
            <Tabs.Trigger value="patients" className="tab">
              <Trans>Patients</Trans>
            </Tabs.Trigger>
            <Tabs.Trigger value="results" className="tab">
              <Trans>Results</Trans>
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="trials" className="tab-panel">
            <TrialsTab spaceId={spaceId} trials={trials} onChanged={loadTrials} />
          </Tabs.Content>
          <Tabs.Content value="patients" className="tab-panel">
            <PatientsTab spaceId={spaceId} patients={patients} onChanged={loadPatients} />
          </Tabs.Content>
          <Tabs.Content value="results" className="tab-panel">
            <ResultsTab spaceId={spaceId} trials={trials} patientIds={patients.map((p) => p.id)} recordsBeingRead={reading} />
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        !error && (
          <p className="muted" role="status">
            <Trans>Loading…</Trans>
          </p>
        )
      )}
    </>
  );
}
