import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { endSession } from './session-actions';
import { useDocumentTitle } from '../../ui/use-document-title';

export function LogoutScreen() {
  const { t } = useLingui();
  useDocumentTitle(t`Signing out…`);
  const navigate = useNavigate();
  useEffect(() => {
    // Safe to run twice (StrictMode): a second revoke of the same token is a 401 that also ends at login.
    void endSession().then(() => navigate({ to: '/login', replace: true }));
  }, [navigate]);
  return (
    <main className="auth-page">
      <p role="status">
        <Trans>Signing out…</Trans>
      </p>
    </main>
  );
}
