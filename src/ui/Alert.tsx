import type { ReactNode } from 'react';

/** Errors interrupt (role=alert); other tones are announced politely (role=status). */
export function Alert({ tone, children }: { tone: 'error' | 'success' | 'info' | 'warning'; children: ReactNode }) {
  return (
    <div className="alert" data-tone={tone} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
