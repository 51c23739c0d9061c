import { describe, expect, it } from 'vitest';
import { consultationPathFor, homeAfterSessionEnded, redirectFor, routeNameOf, type NavigationState } from './navigation-rules';

const guest: NavigationState = { authenticated: false, user: null };
const user: NavigationState = { authenticated: true, user: { v2_home: false, force_password_change: false } };
const v2User: NavigationState = { authenticated: true, user: { v2_home: true, force_password_change: false } };
const forced: NavigationState = { authenticated: true, user: { v2_home: false, force_password_change: true } };
const REF = '/organization/invitations/abc-123';

describe('routeNameOf', () => {
  it.each([
    ['/', 'home'],
    ['/v2', 'home-v2'],
    ['/change-password', 'change_password'],
    ['/autologin/tok', 'autologin'],
    ['/integration/jwt', 'integration'],
    ['/login', 'login'],
    ['/signup', 'signup'],
    ['/logout', 'logout'],
    ['/reset', 'reset'],
    ['/consultation/1', 'consultation'],
    ['/consultation_v2/1', 'consultation_v2'],
    ['/dictaphone/consultation/1', 'dictaphone_consultation'],
    ['/trials', 'trials'],
    ['/trials/space-1', 'trials'],
    ['/settings', 'settings'],
    ['/settings/account', 'settings'],
    ['/settings/history/u1', 'settings'],
    ['/generate/summary', 'generation'],
    ['/reset_password/t', 'reset_password'],
    ['/confirm_email/t', 'confirm_email'],
    ['/consultation_types/c1/selectable_documents/d1', 'selectable_document'],
    ['/editor', 'editor'],
    ['/editor/c1', 'editor'],
    ['/organization/invitations/t', 'organization_invitations'],
    ['/login/', 'login'],
  ])('%s is %s', (path, name) => expect(routeNameOf(path)).toBe(name));

  it('does not name unknown paths', () => expect(routeNameOf('/nowhere')).toBeUndefined());
});

describe('redirectFor', () => {
  it.each<[string, string, Record<string, unknown>, NavigationState, string | null]>([
    // Always allowed, signed in or not
    ['guest on confirm_email', '/confirm_email/t', {}, guest, null],
    ['guest on reset_password', '/reset_password/t', {}, guest, null],
    ['guest on autologin', '/autologin/t', {}, guest, null],
    ['guest on integration', '/integration/t', {}, guest, null],
    ['guest on invitation', '/organization/invitations/t', {}, guest, null],
    ['user on confirm_email', '/confirm_email/t', {}, user, null],
    ['user on reset_password', '/reset_password/t', {}, user, null],
    ['user on invitation', '/organization/invitations/t', {}, user, null],
    // A launch from the record system signs in whom it names, never over another session
    ['guest on launched', '/launched', {}, guest, null],
    ['user on launched', '/launched', {}, user, '/'],
    ['guest on launch_link', '/launch_link', {}, guest, null],
    ['user on launch_link', '/launch_link', {}, user, '/'],
    ['guest on launch_failed', '/launch_failed', {}, guest, null],
    // The server's launch address, shown by an outdated service worker: left to go to the server, signed in or not
    ['guest on the launch address', '/launch/8f0c1c9e-3f4a-4b8e-9a55-0e1b2c3d4e5f', {}, guest, null],
    ['user on the launch address', '/launch/callback', {}, user, null],
    // Authenticated users leave the guest screens for home
    ['user on login', '/login', {}, user, '/'],
    ['user on signup', '/signup', { ref: REF }, user, '/'],
    ['user on reset', '/reset', {}, user, '/'],
    ['user on autologin', '/autologin/t', {}, user, '/'],
    ['user on integration', '/integration/t', {}, user, '/'],
    ['v2 user on login', '/login', {}, v2User, '/v2'],
    // v2_home decides which home
    ['v2 user on home', '/', {}, v2User, '/v2'],
    ['v2 user on home-v2', '/v2', {}, v2User, null],
    ['user on home-v2', '/v2', {}, user, '/'],
    ['user on home', '/', {}, user, null],
    // Guests reach only login, signup (with a valid ref) and reset
    ['guest on login', '/login', {}, guest, null],
    ['guest on reset', '/reset', {}, guest, null],
    ['guest on signup with ref', '/signup', { ref: REF }, guest, null],
    ['guest on signup without ref', '/signup', {}, guest, '/login'],
    ['guest on signup with bad ref', '/signup', { ref: '/organization/invitations/a_b' }, guest, '/login'],
    ['guest on signup with other ref', '/signup', { ref: '/settings/x' }, guest, '/login'],
    ['guest on signup with ref suffix', '/signup', { ref: `${REF}/x` }, guest, '/login'],
    ['guest on home', '/', {}, guest, '/login'],
    ['guest on home-v2', '/v2', {}, guest, '/login'],
    ['guest on settings', '/settings/account', {}, guest, '/login'],
    ['guest on consultation', '/consultation/1', {}, guest, '/login'],
    ['guest on change_password', '/change-password', {}, guest, '/login'],
    ['guest on logout', '/logout', {}, guest, '/login'],
    ['guest on unknown path', '/nowhere', {}, guest, '/login'],
    // force_password_change
    ['forced user on home', '/', {}, forced, '/change-password'],
    ['forced user on settings', '/settings', {}, forced, '/change-password'],
    ['forced user on change_password', '/change-password', {}, forced, null],
    ['forced user on logout', '/logout', {}, forced, null],
    ['forced user on confirm_email', '/confirm_email/t', {}, forced, null],
    // Token present but the profile not loaded yet: stay, the rules run again when it arrives
    ['token without user on settings', '/settings', {}, { authenticated: true, user: null }, null],
  ])('%s', (_name, path, search, state, expected) => {
    expect(redirectFor(path, search, state)?.to ?? null).toBe(expected);
  });

  it('keeps the query when switching between the two homes', () => {
    expect(redirectFor('/', { tab: 'trials' }, v2User)).toEqual({ to: '/v2', keepSearch: true });
  });
});

describe('consultationPathFor', () => {
  it.each<[string, { id: string; show_transcription?: boolean }, boolean, string, string | null]>([
    ['dictaphone when show_transcription', { id: 's1', show_transcription: true }, false, '/', '/dictaphone/consultation/s1'],
    ['dictaphone wins over v2', { id: 's1', show_transcription: true }, true, '/', '/dictaphone/consultation/s1'],
    ['v2 when v2_home', { id: 's1' }, true, '/v2', '/consultation_v2/s1'],
    ['classic otherwise', { id: 's1' }, false, '/', '/consultation/s1'],
    ['skipped on selectable documents', { id: 's1' }, false, '/consultation_types/c/selectable_documents/d', null],
    ['skipped on consultation_v2', { id: 's1' }, false, '/consultation_v2/other', null],
    ['no move when already there', { id: 's1' }, false, '/consultation/s1', null],
  ])('%s', (_n, session, v2, path, expected) => expect(consultationPathFor(session, v2, path)).toBe(expected));
});

describe('homeAfterSessionEnded', () => {
  it('keeps the query', () => {
    expect(homeAfterSessionEnded(false, '?tab=x')).toBe('/?tab=x');
    expect(homeAfterSessionEnded(true, '?tab=x')).toBe('/v2?tab=x');
  });
});
