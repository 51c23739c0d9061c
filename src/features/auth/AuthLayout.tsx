import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { Logo } from '../../ui/Logo';

/** The frame of every signed-out screen: one card, the product's name, and the language choice. */
export function AuthLayout({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand">
          <Logo />
          <span>
            <Trans>Consultation Notes</Trans>
          </span>
        </div>
        <h1>{title}</h1>
        {children}
      </div>
      <LanguageSwitch />
    </main>
  );
}
