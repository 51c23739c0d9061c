import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { researchApi, type ResearchSpace } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { describeFailure } from '../i18n/api-error-messages';

/** The research spaces the user may open (their own and their organization's), each a link to its screen. */
export function ResearchSpacesList() {
  const { i18n } = useLingui();
  const [spaces, setSpaces] = useState<ResearchSpace[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    researchApi.spaces().then(
      (r) => setSpaces(r.research_spaces),
      (err) => setError(describeFailure(i18n, err)),
    );
  }, [i18n]);

  if (error) return <Alert tone="error">{error}</Alert>;
  if (!spaces) {
    return (
      <p className="muted" role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  }
  if (spaces.length === 0) {
    return (
      <p className="muted">
        <Trans>No research space yet.</Trans>
      </p>
    );
  }
  return (
    <ul className="recent-list">
      {spaces.map((s) => (
        <li key={s.id} className="recent-item">
          <Link to="/trials/{-$space}" params={{ space: s.id }} className="recent-link">
            <strong>{s.name}</strong>
          </Link>
          <span className="muted">{s.shared_with_organization ? <Trans>Shared with your organization</Trans> : <Trans>Only you</Trans>}</span>
        </li>
      ))}
    </ul>
  );
}
