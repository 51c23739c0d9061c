import { useMatch } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * Where a screen that could not be drawn says so: inside the signed-in frame (its navigation stays, so the clinician
 * can go elsewhere, to a recording for one) when the failing screen is one of the frame's, else as a page of its own.
 */
export function ScreenProblemLayout({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  // The nearest route match is the one whose screen failed (the router draws each match in its own boundary).
  const routeId = useMatch({ strict: false, shouldThrow: false })?.routeId ?? '';
  if (routeId.startsWith('/_app/'))
    return (
      <section className="card screen-problem" aria-labelledby={labelledBy}>
        {children}
      </section>
    );
  return (
    <main className="auth-page">
      <section className="auth-card screen-problem" aria-labelledby={labelledBy}>
        {children}
      </section>
    </main>
  );
}
