import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';
import { AudioTest } from '../recording/AudioTest';

/** Spec §2's settings sections, in order. Each becomes real with the organizations and settings feature. */
export const SETTINGS_SECTIONS: { id: string; label: MessageDescriptor }[] = [
  { id: 'account', label: msg`Account` },
  { id: 'organisation', label: msg`Organisation` },
  { id: 'audio', label: msg`Audio` },
  { id: 'credits', label: msg`Credits` },
  { id: 'history', label: msg`History` },
  { id: 'support', label: msg`Support` },
  { id: 'tools', label: msg`Tools` },
  { id: 'marketing', label: msg`Marketing preferences` },
  { id: 'storage', label: msg`Consultation data storage` },
];

export function SettingsScreen({ section }: { section?: string }) {
  const { i18n } = useLingui();
  const current = SETTINGS_SECTIONS.find((s) => s.id === section) ?? SETTINGS_SECTIONS[0]!;
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
      {current.id === 'audio' ? <AudioTest /> : <ComingSoon nested title={i18n._(current.label)} />}
    </>
  );
}
