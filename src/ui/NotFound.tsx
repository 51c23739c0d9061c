import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { ScreenProblemLayout } from './ScreenProblemLayout';
import { useDocumentTitle } from './use-document-title';

export function NotFound() {
  const { t } = useLingui();
  useDocumentTitle(t`Page not found`);
  const headingId = useId();
  return (
    <ScreenProblemLayout labelledBy={headingId}>
      <h1 id={headingId}>
        <Trans>Page not found</Trans>
      </h1>
      <p className="muted">
        <Trans>The address you opened does not exist in the app.</Trans>
      </p>
      <Link to="/">
        <Trans>Go to the home page</Trans>
      </Link>
    </ScreenProblemLayout>
  );
}
