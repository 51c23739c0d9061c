import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';

/** An honest placeholder for a screen a later version builds: its title, and nothing that pretends to work. */
export function ComingSoon({ title, children, nested }: { title: ReactNode; children?: ReactNode; nested?: boolean }) {
  const Heading = nested ? 'h2' : 'h1';
  return (
    <section aria-labelledby="page-title">
      <Heading id="page-title">{title}</Heading>
      <div className="card">
        <p>
          <span className="badge">
            <Trans>Coming soon</Trans>
          </span>
        </p>
        {children ?? (
          <p className="muted">
            <Trans>This part of the app is not available yet. It will arrive in a coming version.</Trans>
          </p>
        )}
      </div>
    </section>
  );
}
