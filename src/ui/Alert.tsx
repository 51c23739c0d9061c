import type { ReactNode } from 'react';

/**
 * Errors interrupt (role=alert); other tones are announced politely (role=status), unless `urgent`: a warning that
 * must be heard at once when it appears (render it only then, so it is announced once).
 */
export function Alert({ tone, urgent = false, children }: { tone: 'error' | 'success' | 'info' | 'warning'; urgent?: boolean; children: ReactNode }) {
  return (
    <div className="alert" data-tone={tone} role={tone === 'error' || urgent ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
