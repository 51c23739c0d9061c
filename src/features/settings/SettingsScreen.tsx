import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { AudioTest } from '../recording/AudioTest';
import { AccountSection } from './sections/AccountSection';
import { AuditLogSection } from './sections/AuditLogSection';
import { CreditsSection } from './sections/CreditsSection';
import { HistorySection } from './sections/HistorySection';
import { OrganisationSection } from './sections/OrganisationSection';
import { MarketingSection, StorageSection } from './sections/PreferencesSections';
import { SupportSection } from './sections/SupportSection';
import { ToolsSection } from './sections/ToolsSection';

/** Spec §2's settings sections, in order. */
export const SETTINGS_SECTIONS: { id: string; label: MessageDescriptor; Component: ComponentType<{ userId?: string }> }[] = [
  { id: 'account', label: msg`Account`, Component: AccountSection },
  { id: 'organisation', label: msg`Organisation`, Component: OrganisationSection },
  { id: 'access-log', label: msg`Access log`, Component: AuditLogSection },
  { id: 'audio', label: msg`Audio`, Component: AudioTest },
  { id: 'credits', label: msg`Credits`, Component: CreditsSection },
  { id: 'history', label: msg`History`, Component: HistorySection },
  { id: 'support', label: msg`Support`, Component: SupportSection },
  { id: 'tools', label: msg`Tools`, Component: ToolsSection },
  { id: 'marketing', label: msg`Marketing preferences`, Component: MarketingSection },
  { id: 'storage', label: msg`Consultation data storage`, Component: StorageSection },
];

export function SettingsScreen({ section, userId }: { section?: string; userId?: string }) {
  const { i18n } = useLingui();
  const current = SETTINGS_SECTIONS.find((s) => s.id === section) ?? SETTINGS_SECTIONS[0]!;
  const { Component } = current;
  return (
    <>
      <h1>
        <Trans>Settings</Trans>
      </h1>
      <nav className="section-nav" aria-label={i18n._(msg`Settings sections`)}>
        {SETTINGS_SECTIONS.map((s) => (
          <Link
            key={s.id}
            to="/settings/{-$section}"
            params={{ section: s.id }}
            className="pill"
            aria-current={s.id === current.id ? 'page' : undefined}
          >
            {i18n._(s.label)}
          </Link>
        ))}
      </nav>
      <Component key={`${current.id}-${userId ?? ''}`} userId={current.id === 'history' ? userId : undefined} />
    </>
  );
}
