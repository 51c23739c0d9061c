import { Trans, useLingui } from '@lingui/react/macro';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { FlaskConical, House, LayoutTemplate, MessageCircleQuestion, Settings } from 'lucide-react';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { LANGUAGES, type Language } from '../../contract/constants';
import { activateLocale } from '../features/i18n/activate';
import { accountApi } from '../api/account';
import { authAtom, updateUser } from '../app-state';
import { LANGUAGE_NAMES, LanguageSwitch } from '../features/i18n/LanguageSwitch';
import { RegisterConsultationListener } from '../features/integration/RegisterConsultationListener';
import { ActiveSessionFollower } from '../features/pairing/ActiveSessionFollower';
import { Logo } from './Logo';

// The assistant is opened now and then: its code loads when first asked for.
const AssistantDialog = lazy(() => import('../features/assistant/AssistantDialog').then((m) => ({ default: m.AssistantDialog })));

/**
 * The signed-in frame: brand, main navigation, language and the account menu. One navigation, laid out by width:
 * a bar at the bottom on phones (in reach of the thumb, never wrapping), a row under the header on tablets and a
 * sidebar on desktops. On phones the language moves into the account menu so that the header keeps the app's name.
 */
export function AppFrame() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const auth = useAtomValue(authAtom);
  const user = auth?.user;
  const home = user?.v2_home ? '/v2' : '/';
  const [assistantOpen, setAssistantOpen] = useState(false);
  // The router draws its first screen in one piece (a synchronous render): the frame first, then the screen as
  // background work in slices, so that a slow phone answers a touch meanwhile. Only when the frame first appears.
  const screenDrawn = useDeferredValue(true, false);
  const changeLanguage = (language: Language) => {
    // The account's language decides the language of its mails; keep it in step, quietly.
    if (user)
      accountApi.updateAccount({ language }).then(
        ({ d_user }) => updateUser(d_user),
        () => undefined,
      );
  };

  return (
    <div className="app-shell">
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
          <MessageCircleQuestion aria-hidden="true" size={20} />
          <span className="header-button-label">
            <Trans>Assistant</Trans>
          </span>
        </button>
        <span className="header-language">
          <LanguageSwitch onChanged={changeLanguage} />
        </span>
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
              <DropdownMenu.Separator className="menu-separator menu-language" />
              <DropdownMenu.Label className="menu-label menu-language">
                <Trans>Language</Trans>
              </DropdownMenu.Label>
              <DropdownMenu.RadioGroup
                className="menu-language"
                value={i18n.locale}
                onValueChange={async (value) => {
                  const language = value as Language;
                  await activateLocale(language, { remember: true });
                  changeLanguage(language);
                }}
              >
                {LANGUAGES.map((l) => (
                  <DropdownMenu.RadioItem key={l} value={l} lang={l} className="menu-item">
                    <DropdownMenu.ItemIndicator className="menu-indicator">✓</DropdownMenu.ItemIndicator>
                    {LANGUAGE_NAMES[l]}
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </header>
      <nav className="app-nav" aria-label={t`Main`}>
        <Link to={home} activeOptions={{ exact: true }}>
          <House aria-hidden="true" size={22} />
          <span>
            <Trans>Home</Trans>
          </span>
        </Link>
        <Link to="/trials/{-$space}">
          <FlaskConical aria-hidden="true" size={22} />
          <span>
            <Trans>Research</Trans>
          </span>
        </Link>
        <Link to="/editor/{-$consultationTypeId}">
          <LayoutTemplate aria-hidden="true" size={22} />
          <span>
            <Trans>Templates</Trans>
          </span>
        </Link>
        <Link to="/settings/{-$section}">
          <Settings aria-hidden="true" size={22} />
          <span>
            <Trans>Settings</Trans>
          </span>
        </Link>
      </nav>
      <main id="main" className="app-main">
        {screenDrawn && <Outlet />}
      </main>
      <ActiveSessionFollower />
      <RegisterConsultationListener />
      {assistantOpen && (
        <Suspense fallback={null}>
          <AssistantDialog open onOpenChange={setAssistantOpen} />
        </Suspense>
      )}
    </div>
  );
}
