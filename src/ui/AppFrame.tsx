import { Trans, useLingui } from '@lingui/react/macro';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState } from 'react';
import { accountApi } from '../api/account';
import { authAtom, updateUser } from '../app-state';
import { LanguageSwitch } from '../features/i18n/LanguageSwitch';
import { RegisterConsultationListener } from '../features/integration/RegisterConsultationListener';
import { ActiveSessionFollower } from '../features/pairing/ActiveSessionFollower';
import { Logo } from './Logo';

// The assistant is opened now and then: its code loads when first asked for.
const AssistantDialog = lazy(() => import('../features/assistant/AssistantDialog').then((m) => ({ default: m.AssistantDialog })));

/** The signed-in frame: brand, main navigation, language and the account menu. */
export function AppFrame() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const auth = useAtomValue(authAtom);
  const user = auth?.user;
  const home = user?.v2_home ? '/v2' : '/';
  const [assistantOpen, setAssistantOpen] = useState(false);

  return (
    <>
      <a href="#main" className="visually-hidden">
        <Trans>Skip to content</Trans>
      </a>
      <header className="app-header">
        <Link to={home} className="brand">
          <Logo />
          <span className="brand-name">
            <Trans>Consultation Notes</Trans>
          </span>
        </Link>
        <button type="button" className="button header-button" data-variant="ghost" onClick={() => setAssistantOpen(true)}>
          <Trans>Assistant</Trans>
        </button>
        <LanguageSwitch
          onChanged={(language) => {
            // The account's language decides the language of its mails; keep it in step, quietly.
            if (user) accountApi.updateAccount({ language }).then(({ d_user }) => updateUser(d_user), () => undefined);
          }}
        />
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="avatar" aria-label={t`Account menu`}>
            <span aria-hidden="true">{(user?.name ?? '?').slice(0, 1).toUpperCase()}</span>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
              {user && (
                <DropdownMenu.Label className="menu-label">
                  {user.name}
                  <br />
                  {user.email}
                </DropdownMenu.Label>
              )}
              <DropdownMenu.Item className="menu-item" onSelect={() => navigate({ to: '/settings/{-$section}', params: { section: 'account' } })}>
                <Trans>Account settings</Trans>
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" onSelect={() => navigate({ to: '/change-password' })}>
                <Trans>Change password</Trans>
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" onSelect={() => navigate({ to: '/logout' })}>
                <Trans>Sign out</Trans>
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </header>
      <nav className="app-nav" aria-label={t`Main`}>
        <Link to={home} activeOptions={{ exact: true }}>
          <Trans>Consultations</Trans>
        </Link>
        <Link to="/trials/{-$space}">
          <Trans>Research</Trans>
        </Link>
        <Link to="/editor/{-$consultationTypeId}">
          <Trans>Templates</Trans>
        </Link>
        <Link to="/settings/{-$section}">
          <Trans>Settings</Trans>
        </Link>
      </nav>
      <main id="main" className="app-main">
        <Outlet />
      </main>
      <ActiveSessionFollower />
      <RegisterConsultationListener />
      {assistantOpen && (
        <Suspense fallback={null}>
          <AssistantDialog open onOpenChange={setAssistantOpen} />
        </Suspense>
      )}
    </>
  );
}
