import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ComponentType } from 'react';
import { useAtomValue } from 'jotai';
import type { DUser } from '../../../contract/account';
import { authAtom } from '../../app-state';
import { AudioTest } from '../recording/AudioTest';
import { AiEnginesSection } from './sections/AiEnginesSection';
import { AccountSection } from './sections/AccountSection';
import { AuditLogSection } from './sections/AuditLogSection';
import { CreditsSection } from './sections/CreditsSection';
import { HistorySection } from './sections/HistorySection';
import { OrganisationSection } from './sections/OrganisationSection';
import { MarketingSection, StorageSection } from './sections/PreferencesSections';
import { SupportSection } from './sections/SupportSection';
import { ToolsSection } from './sections/ToolsSection';
import { useDocumentTitle } from '../../ui/use-document-title';

/** Spec §2's settings sections, in order. */
export const SETTINGS_SECTIONS: { id: string; label: MessageDescriptor; Component: ComponentType<{ userId?: string }>; onlyFor?: (user: DUser) => boolean }[] =
  [
    { id: 'account', label: msg`Account`, Component: AccountSection },
    { id: 'organisation', label: msg`Organization`, Component: OrganisationSection },
    { id: 'access-log', label: msg`Access log`, Component: AuditLogSection },
    { id: 'audio', label: msg`Audio`, Component: AudioTest },
    { id: 'credits', label: msg`Credits`, Component: CreditsSection },
    { id: 'history', label: msg`History`, Component: HistorySection },
    { id: 'support', label: msg`Support`, Component: SupportSection },
    { id: 'tools', label: msg`Tools`, Component: ToolsSection },
    { id: 'marketing', label: msg`Marketing preferences`, Component: MarketingSection },
    { id: 'storage', label: msg`Consultation data storage`, Component: StorageSection },
    // The server's own settings, for whoever runs it (never an organisation's administrators as such).
    { id: 'ai-engines', label: msg`AI engines`, Component: AiEnginesSection, onlyFor: (user) => user.server_admin === true },
  ];

export function SettingsScreen({ section, userId }: { section?: string; userId?: string }) {
  const { i18n } = useLingui();
  useDocumentTitle(i18n._(msg`Settings`));
  const user = useAtomValue(authAtom)?.user;
  const sections = SETTINGS_SECTIONS.filter((s) => !s.onlyFor || (user && s.onlyFor(user)));
  const current = sections.find((s) => s.id === section) ?? sections[0]!;
  const { Component } = current;
  // On a phone the sections are a list first, and a chosen section fills the screen with a way back to the list;
  // wider screens show both side by side (the first section when none is chosen).
  return (
    <>
      <h1>
        <Trans>Settings</Trans>
      </h1>
      <div className="settings-layout" data-chosen={section ? 'yes' : 'no'}>
        <nav className="settings-nav" aria-label={i18n._(msg`Settings sections`)}>
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                <Link to="/settings/{-$section}" params={{ section: s.id }} aria-current={s.id === current.id ? 'page' : undefined}>
                  <span>{i18n._(s.label)}</span>
                  <ChevronRight aria-hidden="true" size={18} className="settings-nav-chevron" />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-detail">
          <Link to="/settings/{-$section}" params={{ section: undefined }} className="settings-back">
            <ChevronLeft aria-hidden="true" size={18} />
            <Trans>All settings</Trans>
          </Link>
          <Component key={`${current.id}-${userId ?? ''}`} userId={current.id === 'history' ? userId : undefined} />
        </div>
      </div>
    </>
  );
}
