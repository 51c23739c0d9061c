import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { researchApi } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';
import { ResearchSpacesList } from './ResearchSpacesList';
import { useDocumentTitle } from '../../ui/use-document-title';

/** /trials: the research spaces the user may open (their own and their organization's), and a new one. */
export function ResearchSpacesScreen() {
  const { i18n, t } = useLingui();
  useDocumentTitle(t`Research spaces`);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!name.trim()) return;
    setBusy(true);
    try {
      const { research_space } = await researchApi.createSpace(name.trim());
      await navigate({ to: '/trials/{-$space}', params: { space: research_space.id } });
    } catch (err) {
      setError(describeFailure(i18n, err));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>
        <Trans>Research spaces</Trans>
      </h1>
      <p className="muted">
        <Trans>
          A research space holds clinical trials with their criteria, patients' PDF records and the screening results. Spaces you create are shared with your
          organization.
        </Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      <section className="card" aria-labelledby="spaces-title">
        <h2 id="spaces-title">
          <Trans>Your spaces</Trans>
        </h2>
        <ResearchSpacesList />
      </section>
      <section className="card" aria-labelledby="new-space-title">
        <h2 id="new-space-title">
          <Trans>Create a space</Trans>
        </h2>
        <form noValidate onSubmit={(e) => void create(e)} className="inline-form">
          <TextField
            label={t`Space name`}
            value={name}
            maxLength={200}
            error={tried && !name.trim() ? t`Fill this field.` : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" busy={busy}>
            <Trans>Create space</Trans>
          </Button>
        </form>
      </section>
    </>
  );
}
