/**
 * Spec §2 "Navigation rules", as pure functions of where the user is and what the app knows.
 * Every redirect the app makes on its own comes from here; navigation-rules.test.ts is the table of cases.
 */

export type RouteName =
  | 'home'
  | 'home-v2'
  | 'change_password'
  | 'autologin'
  | 'integration'
  | 'launched'
  | 'launch_link'
  | 'launch_failed'
  | 'launch'
  | 'login'
  | 'signup'
  | 'logout'
  | 'reset'
  | 'consultation'
  | 'consultation_v2'
  | 'dictaphone_consultation'
  | 'trials'
  | 'settings'
  | 'generation'
  | 'reset_password'
  | 'confirm_email'
  | 'selectable_document'
  | 'editor'
  | 'organization_invitations';

const SEG = '[^/]+';
const ROUTES: [RouteName, RegExp][] = [
  ['home', /^\/$/],
  ['home-v2', /^\/v2$/],
  ['change_password', /^\/change-password$/],
  ['autologin', new RegExp(`^/autologin/${SEG}$`)],
  ['integration', new RegExp(`^/integration/${SEG}$`)],
  ['launched', /^\/launched$/],
  ['launch_link', /^\/launch_link$/],
  ['launch_failed', /^\/launch_failed$/],
  // The server's launch address, reached as a page of the app only through an outdated service worker.
  ['launch', /^\/launch\/.+$/],
  ['login', /^\/login$/],
  ['signup', /^\/signup$/],
  ['logout', /^\/logout$/],
  ['reset', /^\/reset$/],
  ['consultation', new RegExp(`^/consultation/${SEG}$`)],
  ['consultation_v2', new RegExp(`^/consultation_v2/${SEG}$`)],
  ['dictaphone_consultation', new RegExp(`^/dictaphone/consultation/${SEG}$`)],
  ['trials', new RegExp(`^/trials(/${SEG})?$`)],
  ['settings', new RegExp(`^/settings(/${SEG}(/${SEG})?)?$`)],
  ['generation', new RegExp(`^/generate/${SEG}$`)],
  ['reset_password', new RegExp(`^/reset_password/${SEG}$`)],
  ['confirm_email', new RegExp(`^/confirm_email/${SEG}$`)],
  ['selectable_document', new RegExp(`^/consultation_types/${SEG}/selectable_documents/${SEG}$`)],
  ['editor', new RegExp(`^/editor(/${SEG})?$`)],
  ['organization_invitations', new RegExp(`^/organization/invitations/${SEG}$`)],
];

export function routeNameOf(pathname: string): RouteName | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return ROUTES.find(([, re]) => re.test(path))?.[0];
}

// A launch from the record system never replaces a session open in this browser (whoever is signed in stays).
const ALWAYS_ALLOWED: ReadonlySet<RouteName> = new Set([
  'confirm_email',
  'reset_password',
  'autologin',
  'organization_invitations',
  'integration',
  'launched',
  'launch_link',
  'launch_failed',
  'launch',
]);
const GUEST_ONLY: ReadonlySet<RouteName> = new Set(['login', 'signup', 'reset', 'autologin', 'integration', 'launched', 'launch_link']);
const GUEST_ALLOWED: ReadonlySet<RouteName> = new Set(['login', 'signup', 'reset']);

/** The invitation ref that makes /signup reachable. */
export const SIGNUP_REF = /^\/organization\/invitations\/[A-Za-z0-9-]+$/;

export type NavigationState = {
  /** A token exists in local or session storage (its validity is the expiry timer's business). */
  authenticated: boolean;
  user: { v2_home: boolean; force_password_change: boolean } | null;
};

export type Redirect = { to: string; keepSearch?: boolean };

/**
 * Where the user must go instead of `pathname`, or null to stay.
 * `search` is the query as an object (only `ref` matters here).
 */
export function redirectFor(pathname: string, search: Record<string, unknown>, state: NavigationState): Redirect | null {
  const route = routeNameOf(pathname);

  if (state.authenticated) {
    if (route && GUEST_ONLY.has(route)) return homeFor(state);
    if (route === 'logout') return null;
    if (route && ALWAYS_ALLOWED.has(route)) return null;
    if (state.user?.force_password_change && route !== 'change_password') return { to: '/change-password' };
    if (route === 'home' && state.user?.v2_home) return { to: '/v2', keepSearch: true };
    if (route === 'home-v2' && state.user && !state.user.v2_home) return { to: '/', keepSearch: true };
    return null;
  }

  if (route && ALWAYS_ALLOWED.has(route)) return null;
  if (route === 'signup') {
    const ref = search.ref;
    return typeof ref === 'string' && SIGNUP_REF.test(ref) ? null : { to: '/login' };
  }
  if (route && GUEST_ALLOWED.has(route)) return null;
  // Unknown paths included: a guest sees nothing but the login screen.
  return { to: '/login' };
}

function homeFor(state: NavigationState): Redirect {
  return { to: state.user?.v2_home ? '/v2' : '/' };
}

export type ActiveSession = { id: string; show_transcription?: boolean };

/**
 * Where an active session (e.g. started on the phone) opens, or null when the rule is skipped:
 * on the selectable-documents route, on /consultation_v2/*, or when the user is already there.
 */
export function consultationPathFor(session: ActiveSession, v2Home: boolean, currentPathname: string): string | null {
  const route = routeNameOf(currentPathname);
  if (route === 'selectable_document' || route === 'consultation_v2') return null;
  const target = session.show_transcription
    ? `/dictaphone/consultation/${session.id}`
    : v2Home
      ? `/consultation_v2/${session.id}`
      : `/consultation/${session.id}`;
  return target === currentPathname ? null : target;
}

/** When the active session disappears on a phone: back home (v2 or not), keeping the query. */
export function homeAfterSessionEnded(v2Home: boolean, search: string): string {
  return `${v2Home ? '/v2' : '/'}${search}`;
}
