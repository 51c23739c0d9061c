import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { Logo } from '../../ui/Logo';
import { useDocumentTitle } from '../../ui/use-document-title';

/** The frame of every signed-out screen: one card, the product's name, and the language choice. */
export function AuthLayout({ title, children }: { title: ReactNode; children: ReactNode }) {
  // The tab is named after the heading as drawn: each route words it once, through lingui, in the language shown.
  const heading = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState<string>();
  useLayoutEffect(() => setShown(heading.current?.textContent?.trim() || undefined));
  useDocumentTitle(shown);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand">
          <Logo />
          <span>
            <Trans>Consultation Notes</Trans>
          </span>
        </div>
        <h1 ref={heading}>{title}</h1>
        {children}
      </div>
      <LanguageSwitch />
    </main>
  );
}
